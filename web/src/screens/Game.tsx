import { useEffect, useRef, useState } from "preact/hooks";
import { CardRow, showWhole, type RowCard } from "../components/CardRow";
import { Players } from "../components/Players";
import { ScoreTrack } from "../components/ScoreTrack";
import { Zoom } from "../components/Zoom";
import { AtTheTable } from "../components/AtTheTable";
import { useCardAlt } from "../net/cardText";
import { seatHex } from "../components/colors";
import { useI18n } from "../i18n/context";
import { discardPile, isPending, revealedRound, roundPoints, seatName, shownView, turn, type ClientState } from "../state/reducer";
import { hintKey, useHints } from "../state/hints";
import { reducedMotion, useTurnMoment } from "../state/turnMoment";
import { Banner, ClueBubble } from "./Banner";
import { GameOver } from "./GameOver";
import { History } from "./History";
import { HostControls } from "./HostControls";
import { Reveal, cardAlt } from "./Reveal";
import type { Send } from "../net/socket";

/** The 2021 discard pile shuffled back: how many cards the draw pile gained, for this round. */
function usePileReshuffle(view: { pile_count: number; round: number }): number | null {
  const before = useRef<{ pile: number; round: number } | null>(null);
  const [gained, setGained] = useState<{ n: number; round: number } | null>(null);
  useEffect(() => {
    const prev = before.current;
    if (prev && view.pile_count > prev.pile) setGained({ n: view.pile_count - prev.pile, round: view.round });
    before.current = { pile: view.pile_count, round: view.round };
  }, [view.pile_count, view.round]);
  return gained && gained.round === view.round ? gained.n : null;
}
import { Chat } from "../components/Chat";
import { ReactionsShown } from "../components/Reactions";

/** The last round whose reveal this player closed, in this game: kept in the browser, so a page
 * opened again does not show a reveal already read. */
function useClosedReveal(code: string, game: number): [number, (round: number) => void] {
  const key = `dixit.revealClosed.${code}.${game}`;
  const [closed, setClosed] = useState(() => Number(localStorage.getItem(key) ?? 0) || 0);
  return [closed, (round: number) => {
    setClosed(round);
    try { localStorage.setItem(key, String(round)); } catch { /* private mode: this page only */ }
  }];
}

/** Team play: the viewer's partner (partners sit in a row, `team_size` seats a team). */
export function partnerOf(view: { players: string[]; viewer: string | null; rules: { team_size: number } }): string | null {
  const size = view.rules.team_size;
  const at = view.viewer ? view.players.indexOf(view.viewer) : -1;
  if (size < 2 || at < 0) return null;
  const first = at - (at % size);
  return view.players.slice(first, first + size).find((p) => p !== view.viewer) ?? null;
}

/** What a table card says to this player (an i18n key): voided (party), their vote sent (1st/2nd
 * where two votes are), a vote being chosen (`chosen`, in order, where `twoVotes`), or their own. */
export function tableTagKey(
  id: string,
  view: { my_void: string | null; my_vote: string | null; my_second_vote: string | null; my_cards: string[] },
  chosen: string[],
  twoVotes: boolean,
): string | null {
  if (view.my_void === id) return "game.voided";
  if (view.my_vote === id) return twoVotes || view.my_second_vote ? "game.yourFirstVote" : "game.yourVote";
  if (view.my_second_vote === id) return "game.yourSecondVote";
  const at = chosen.indexOf(id);
  if (twoVotes && at >= 0) return at === 0 ? "game.firstVote" : "game.secondVote";
  return view.my_cards.includes(id) ? "game.yourCard" : null;
}

/** A tap this soon after the turn changed was meant for the turn before. */
const TAP_GUARD_MS = 400;

export function Game({ state, send }: { state: ClientState; send: Send }) {
  const { t } = useI18n();
  const view = shownView(state)!;
  const room = state.room!;
  const legal = view.legal;
  const [selected, setSelected] = useState<string[]>([]);
  const [clue, setClue] = useState("");
  const [zoom, setZoom] = useState<{ cards: RowCard[]; index: number; select?: (id: string) => void } | null>(null);

  // A choice never carries over to another turn (someone else claimed the clue, the computer
  // played for us), and a tap that lands just after the turn changed under the finger is dropped.
  // Party play: the storyteller voids a picture first, then votes (a step of its own).
  const voiding = view.phase === "vote" && legal.void.length > 0;
  const turnKey = `${view.phase}/${view.round}/${view.storyteller}/${voiding}`;
  const turnChanged = useRef({ key: turnKey, at: 0 });
  if (turnChanged.current.key !== turnKey) turnChanged.current = { key: turnKey, at: Date.now() };
  useEffect(() => setSelected([]), [view.phase, view.round, view.storyteller, voiding]);
  useEffect(() => setClue(""), [view.round]);

  const phase = view.phase;
  const hand = view.hand ?? [];
  const choosableHand = phase === "clue" ? legal.give_clue : phase === "submit" ? legal.submit : [];
  /** Odyssey from 7 players: a first vote and an optional second one. */
  const voteCount = Math.max(1, legal.vote_count);
  const need = phase === "submit" ? Math.max(1, legal.submit_count) : phase === "vote" && !voiding ? voteCount : 1;
  const tableChoosable = voiding ? legal.void : legal.vote;
  const alt = useCardAlt([...hand, ...view.table]);
  const pending = isPending(state, "give_clue") || isPending(state, "submit_cards") || isPending(state, "cast_vote") || isPending(state, "void_card");

  /** After a choice made with the keyboard that completes the selection, go to the next control. */
  function nextControl(complete: boolean) {
    if (!complete) return;
    requestAnimationFrame(() => document.querySelector<HTMLElement>(phase === "clue" ? "#clue-input" : ".actionbar .btn-primary")?.focus());
  }

  function toggle(id: string, allowed: string[], byKeyboard = false) {
    if (!allowed.includes(id) || Date.now() - turnChanged.current.at < TAP_GUARD_MS) return;
    if (byKeyboard) nextControl(selected.includes(id) ? false : Math.min(selected.length + 1, need) === need);
    setSelected((cur) => {
      if (cur.includes(id)) return cur.filter((c) => c !== id);
      // A full vote keeps its first and changes its second; cards handed in slide along.
      if (cur.length >= need && phase === "vote") return [...cur.slice(0, need - 1), id];
      const next = [...cur, id];
      return next.length > need ? next.slice(next.length - need) : next;
    });
  }

  const handCards: RowCard[] = hand.map((id, i) => ({
    id,
    alt: alt(id, cardAlt(t, i)),
    choosable: choosableHand.includes(id),
    selected: selected.includes(id),
  }));
  const partner = view.partner_hand ? partnerOf(view) : null;
  const partnerCards: RowCard[] = (view.partner_hand ?? []).map((id, i) => ({
    id,
    alt: alt(id, cardAlt(t, i)),
    choosable: choosableHand.includes(id),
    selected: selected.includes(id),
  }));
  const twoVotes = voteCount > 1;
  function tableTag(id: string): string | undefined {
    const key = tableTagKey(id, view, voiding ? [] : selected, twoVotes);
    return key ? t(key) : undefined;
  }
  const tableCards: RowCard[] = view.table.map((id, i) => ({
    id,
    alt: alt(id, t("game.tableCard", { n: i + 1 })),
    number: i + 1,
    choosable: tableChoosable.includes(id),
    selected: selected.includes(id) || view.my_vote === id || view.my_second_vote === id,
    tag: tableTag(id),
  }));

  const handSelectable = choosableHand.length > 0;
  /** A card chosen in the zoom (perhaps swiped to from far along the hand) is whole in sight when the zoom closes. */
  function showChosen(id: string) {
    requestAnimationFrame(() => {
      const face = document.querySelector(`[data-testid=hand] [data-card="${CSS.escape(id)}"] .card-face`);
      if (face) showWhole(face);
    });
  }
  const voting = legal.vote.length > 0 || voiding;
  const [dismissed, setDismissed] = useClosedReveal(room.code, room.game_number);
  const [history, setHistory] = useState(false);
  const [hints, setHints] = useHints();
  /** The reveal is read (Continue): the server may start the next turn. */
  function closeReveal(round: number) {
    setDismissed(round);
    // The next turn comes in the reveal's place, at the top: go there (a scroll, not a jump).
    scrollTo({ top: 0, behavior: reducedMotion() ? "auto" : "smooth" });
    if (state.you?.role === "player") send({ type: "reveal_seen", round });
  }
  const reveal = revealedRound(view, dismissed);
  // The reveal is its own beat: nothing of the next turn is asked until it is closed.
  const revealing = reveal !== null && phase !== "over";
  useTurnMoment(view, revealing, t);
  const pile = usePileReshuffle(view);
  const teller = view.storyteller ? seatName(room, view.storyteller) : "";
  const trackPlayers = view.players.map((id) => ({ id, name: seatName(room, id), color: seatHex(room, id), score: view.scores[id] ?? 0 }));
  const gained = reveal ? new Map([...roundPoints(reveal)].map(([p, e]) => [p, e.total])) : undefined;
  const tableNumber = (id: string) => view.table.indexOf(id) + 1;

  function act() {
    if (phase === "clue" && selected[0] && clue.trim()) send({ type: "give_clue", card: selected[0], clue: clue.trim() });
    else if (phase === "submit" && selected.length === need) send({ type: "submit_cards", cards: selected as [string, ...string[]] });
    else if (voiding && selected[0]) send({ type: "void_card", card: selected[0] });
    else if (phase === "vote" && selected[0]) send({ type: "cast_vote", card: selected[0], ...(selected[1] ? { second: selected[1] } : {}) });
    else return;
    // The button goes away with the turn: keep the keyboard where the news is (not on <body>).
    requestAnimationFrame(() => document.getElementById("banner")?.focus());
  }

  let action: preact.ComponentChildren = null;
  if (revealing) {
    action = null;
  } else if (phase === "clue" && legal.give_clue.length > 0) {
    action = (
      <form class="actionbar actionbar--clue" onSubmit={(e) => { e.preventDefault(); act(); }}>
        <label class="sr-only" for="clue-input">{t("game.clueLabel")}</label>
        <input id="clue-input" value={clue} maxLength={legal.max_clue_length || undefined} placeholder={t("game.cluePlaceholder")} onInput={(e) => setClue(e.currentTarget.value)} data-testid="clue-input" autoComplete="off" />
        {legal.max_clue_length ? <span class="counter" aria-hidden="true">{clue.length}/{legal.max_clue_length}</span> : null}
        <button class="btn btn-primary" type="submit" disabled={!selected[0] || !clue.trim() || pending} data-testid="tell">
          {selected[0] ? t("game.tell") : t("game.chooseCard")}
        </button>
      </form>
    );
  } else if (phase === "submit" && legal.submit.length > 0) {
    action = (
      <div class="actionbar">
        {need > 1 ? <span class="muted">{t("game.selectedCount", { count: selected.length, total: need })}</span> : null}
        <button class="btn btn-primary" onClick={act} disabled={selected.length !== need || pending} data-testid="submit">
          {selected.length === 0 ? t("game.chooseCard") : need > 1 ? t("game.submitTwo") : t("game.submit")}
        </button>
      </div>
    );
  } else if (voiding) {
    action = (
      <div class="actionbar">
        <button class="btn btn-primary" onClick={act} disabled={!selected[0] || pending} data-testid="void">
          {selected[0] ? t("game.void", { n: tableNumber(selected[0]) }) : t("game.chooseCard")}
        </button>
      </div>
    );
  } else if (voting) {
    const [first, second] = selected;
    action = (
      <div class="actionbar">
        <button class="btn btn-primary" onClick={act} disabled={!first || pending} data-testid="vote">
          {!first ? t("game.chooseCard")
            : second ? t("game.voteTwo", { a: tableNumber(first), b: tableNumber(second) })
            : twoVotes ? t("game.voteOnly", { n: tableNumber(first) })
            : t("game.vote", { n: tableNumber(first) })}
        </button>
      </div>
    );
  }

  const submittedNote = phase === "submit" && view.my_cards.length > 0 && view.viewer !== view.storyteller;
  const votedNote = phase === "vote" && view.my_vote !== null;

  const handSection = (small: boolean) => (
    <section class={`hand-area${small ? " hand-area--small" : ""}`} key={small ? "hand-small" : "hand"}>
      <h2 class="section-title">{t("game.yourHand")}</h2>
      <CardRow cards={handCards} label={t("game.yourHand")} kind="hand" onSelect={handSelectable ? (id, kb) => toggle(id, choosableHand, kb) : undefined} onZoom={(i) => setZoom({ cards: handCards, index: i, select: handSelectable ? (id) => { toggle(id, choosableHand); showChosen(id); } : undefined })} t={t} />
      {partner ? (
        <div class="partner-hand" data-testid="partner-hand">
          <h2 class="section-title">{t("game.partnerHand", { name: seatName(room, partner) })}</h2>
          <CardRow cards={partnerCards} label={t("game.partnerHand", { name: seatName(room, partner) })} kind="hand" onSelect={handSelectable ? (id, kb) => toggle(id, choosableHand, kb) : undefined} onZoom={(i) => setZoom({ cards: partnerCards, index: i, select: handSelectable ? (id) => toggle(id, choosableHand) : undefined })} t={t} />
        </div>
      ) : null}
    </section>
  );
  const showHand = phase !== "over" && hand.length > 0;

  // What a phase adds comes in place or below, never above what is already on screen: the hand
  // keeps its place through the clue and the cards going in (the face-down pile and the notes come
  // under it); the vote's table takes the hand's place (the hand, small, goes under the table);
  // the reveal and the game over take the top.
  return (
    <main class={`game phase-${phase}${action ? " has-action" : ""}${revealing ? " is-revealing" : ""}`} data-testid="game" data-phase={phase} data-round={view.round} data-turn-at={turnChanged.current.at}>
      <h1 class="sr-only">{t("game.title", { code: room.code })}</h1>
      <Banner view={view} room={room} clue={phase === "submit" || phase === "vote" ? view.clue : null} teller={teller} clueSlot={phase === "clue"}
        onHistory={() => setHistory(true)} onDiscard={() => setZoom({ cards: discardPile(state.rounds, view.discard_count).map((id, i) => ({ id, alt: alt(id, t("game.discardCard", { n: i + 1 })) })), index: 0 })} />
      <div class="game-grid">
        <div class="game-main">
          {phase === "over" ? <GameOver view={view} room={room} isHost={Boolean(state.you?.is_host)} send={send} /> : null}
          {reveal ? <Reveal result={reveal} room={room} onZoom={(cards, index) => setZoom({ cards, index })} onClose={phase === "over" ? undefined : () => closeReveal(reveal.round)} /> : null}
          {view.clue && phase !== "over" && phase !== "clue" ? <ClueBubble clue={view.clue} teller={teller} /> : null}
          {view.table.length > 0 && phase === "vote" ? (
            <section class="table-area" key="table">
              <h2 class="section-title">{t("game.table")}</h2>
              {/* what this step asks, before the pictures are chosen */}
              {revealing ? null
                : voiding ? <p class="note note--step" data-testid="void-hint">{t("game.voidHint")}</p>
                : voting && twoVotes ? <p class="note note--step" data-testid="two-votes-hint">{t("game.twoVotesHint")}</p>
                : voting && view.rules.everyone_votes ? <p class="note note--step" data-testid="everyone-votes">{t("game.everyoneVotes")}</p>
                : null}
              <CardRow cards={tableCards} label={t("game.table")} kind="table" onSelect={voting ? (id, kb) => toggle(id, tableChoosable, kb) : undefined} onZoom={(i) => setZoom({ cards: tableCards, index: i, select: voting ? (id) => toggle(id, tableChoosable) : undefined })} t={t} />
            </section>
          ) : null}
          {votedNote ? <p class="note" data-testid="voted">{t("game.voted")}</p> : null}
          {showHand && phase !== "vote" ? handSection(false) : null}
          {phase === "submit" ? (
            <div class="facedown" role="img" aria-label={t("game.cardsIn", { n: view.acted.length + 1 })}>
              {Array.from({ length: Math.max(view.players.length, view.acted.length + 1) }, (_, i) => <span key={i} class={i <= view.acted.length ? "card-back" : "card-slot"} />)}
            </div>
          ) : null}
          {submittedNote ? <p class="note" data-testid="submitted">{t("game.submitted")}</p> : null}
          {pile ? <p class="note note--pile" role="status" data-testid="reshuffled">{t("game.reshuffled", { count: pile })}</p> : null}
          {showHand && phase === "vote" ? handSection(true) : null}
          {/* Under the hand, where the turn's scroll leaves the eye: the clock's notes and "I'm here". */}
          {phase !== "over" ? <AtTheTable room={room} view={view} me={state.you?.seat ?? null} send={send} t={t} /> : null}
          {/* Party play and two votes: the step's own note, by the table, says what the tip would. */}
          {hints && !revealing && hintKey(turn(view).kind) && !(phase === "vote" && (twoVotes || view.rules.everyone_votes)) ? (
            <p class="tip" data-testid="tip">
              <span>💡 {t(hintKey(turn(view).kind)!)}</span>{" "}
              <button type="button" class="linkish" onClick={() => setHints(false)} data-testid="tips-off">{t("hint.off")}</button>
            </p>
          ) : null}
          {action}
        </div>
        <aside class="game-side">
          <Players view={view} room={room} gained={gained} />
          <ScoreTrack players={trackPlayers} label={t("game.scores")} target={view.rules.end_at_score} lapLabel={(n) => t("track.lap", { n })} scoreLabel={(name, n, lap) => t(lap > 1 ? "track.scoreLap" : "track.score", { name, count: n, lap })} />
          {state.you?.is_host && phase !== "over" ? <HostControls view={view} room={room} send={send} /> : null}
          <Chat state={state} send={send} />
        </aside>
      </div>
      <ReactionsShown state={state} />
      {history ? <History rounds={state.rounds} room={room} onZoom={(cards, index) => setZoom({ cards, index })} onClose={() => setHistory(false)} /> : null}
      {zoom ? <Zoom cards={zoom.cards.map((c) => ({ ...c, selected: selected.includes(c.id) }))} start={zoom.index} onClose={() => setZoom(null)} onSelect={zoom.select} t={t} /> : null}
    </main>
  );
}
