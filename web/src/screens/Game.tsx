import { useEffect, useState } from "preact/hooks";
import { CardRow, type RowCard } from "../components/CardRow";
import { Players } from "../components/Players";
import { RabbitIcon } from "../components/Rabbit";
import { ScoreTrack } from "../components/ScoreTrack";
import { TimerRing } from "../components/TimerRing";
import { Zoom } from "../components/Zoom";
import { rabbitHex } from "../components/colors";
import { navigate } from "../App";
import { useI18n } from "../i18n/context";
import type { T } from "../i18n";
import type { GameView, RoomState, RoundResult } from "../protocol";
import { isPending, revealedRound, shownView, roundPoints, seatName, turn, type ClientState, type Turn } from "../state/reducer";
import type { Send } from "./Room";

export function names(room: RoomState, ids: string[]): string {
  return ids.map((id) => seatName(room, id)).join(", ");
}

export function turnText(t: T, tn: Turn, room: RoomState): string {
  switch (tn.kind) {
    case "lobby": return t("lobby.waitingHost");
    case "yourClue": return t("turn.yourClue");
    case "claimClue": return t("turn.claimClue");
    case "waitClue": return tn.storyteller ? t("turn.waitClue", { name: seatName(room, tn.storyteller) }) : t("turn.claimWait");
    case "yourSubmit": return tn.count > 1 ? t("turn.yourSubmitTwo", { n: tn.count }) : t("turn.yourSubmit");
    case "waitSubmit": return t("turn.waitSubmit", { names: names(room, tn.waiting) });
    case "yourVote": return t("turn.yourVote");
    case "waitVote": return t(tn.storyteller ? "turn.storytellerWaitVote" : "turn.waitVote", { names: names(room, tn.waiting) });
    case "over": return t("turn.over");
  }
}

export function Banner({ view, room }: { view: GameView; room: RoomState }) {
  const { t } = useI18n();
  const tn = turn(view);
  const mine = tn.kind === "yourClue" || tn.kind === "claimClue" || tn.kind === "yourSubmit" || tn.kind === "yourVote";
  const d = room.deadline;
  return (
    <div class={`banner${mine ? " banner--mine" : ""}`} role="status" aria-live="polite" data-testid="banner" data-turn={tn.kind}>
      <div class="banner-meta">
        <span>{t("game.round", { n: view.round })}</span>
        <span>{t("game.pile", { n: view.pile_count })}</span>
      </div>
      <p class="banner-text">{turnText(t, tn, room)}</p>
      {d && d.phase === view.phase ? <TimerRing deadline={d.at} total={d.seconds} t={t} /> : null}
    </div>
  );
}

export function ClueBubble({ clue, teller }: { clue: string; teller: string }) {
  const { t } = useI18n();
  return (
    <blockquote class="clue" data-testid="clue">
      <span class="clue-by">{t("game.clue")} — {teller}</span>
      <q class="clue-text" data-testid="clue-text">{clue}</q>
    </blockquote>
  );
}

export function cardAlt(t: T, index: number): string {
  return t("game.cardAlt", { n: index + 1 });
}

export function Reveal({ result, room, onZoom, onClose }: { result: RoundResult; room: RoomState; onZoom: (cards: RowCard[], i: number) => void; onClose?: () => void }) {
  const { t } = useI18n();
  const points = roundPoints(result);
  const owner = new Map(result.owners.map((o) => [o.card, o.player]));
  const cards: RowCard[] = result.table.map((id, i) => {
    const voters = result.votes.filter((v) => v.card === id).map((v) => v.player);
    const who = owner.get(id) ?? "";
    const teller = id === result.storyteller_card;
    return {
      id,
      alt: cardAlt(t, i),
      number: i + 1,
      tag: teller ? t("reveal.storytellerCard", { name: seatName(room, who) }) : undefined,
      selected: teller,
      extra: (
        <div class="reveal-info">
          {!teller ? <span class="reveal-owner">{t("reveal.owner", { name: seatName(room, who) })}</span> : null}
          <span class="voters" aria-label={voters.length ? t("reveal.votedBy", { names: names(room, voters) }) : t("reveal.noVotes")}>
            {voters.map((v) => (
              <span class="voter" key={v}><RabbitIcon color={rabbitHex(room.seats.find((s) => s.id === v)?.colour)} size={18} />{seatName(room, v)}</span>
            ))}
          </span>
        </div>
      ),
    };
  });
  return (
    <section class="panel reveal" data-testid="reveal" aria-labelledby="reveal-title">
      <h2 id="reveal-title">{t("reveal.title")} · {t("game.round", { n: result.round })}</h2>
      <ClueBubble clue={result.clue} teller={seatName(room, result.storyteller)} />
      <p class="outcome">{t(`reveal.outcome.${result.outcome}`)}</p>
      <CardRow cards={cards} label={t("game.table")} kind="table" onZoom={(i) => onZoom(cards, i)} t={t} />
      <h3>{t("reveal.roundPoints")}</h3>
      <ul class="points" data-testid="round-points">
        {seatOrder(room, result).map((p) => {
          const entry = points.get(p);
          return (
            <li key={p} data-testid="round-point" data-player={p}>
              <RabbitIcon color={rabbitHex(room.seats.find((s) => s.id === p)?.colour)} size={22} />
              <strong>{seatName(room, p)}</strong>
              <span class="points-total">+{entry?.total ?? 0}</span>
              <span class="points-why">
                {entry ? entry.reasons.map((r) => `${r.points} · ${reasonText(t, r.reason)}`).join("; ") : t("reason.none")}
              </span>
            </li>
          );
        })}
      </ul>
      {onClose ? <button class="btn btn-primary reveal-close" onClick={onClose} data-testid="reveal-close">{t("reveal.continue")}</button> : null}
    </section>
  );
}

/** The round's players in seat order (the room's seats), whoever owned a card on the table. */
function seatOrder(room: RoomState, result: RoundResult): string[] {
  const inRound = new Set(result.owners.map((o) => o.player));
  const seated = room.seats.map((s) => s.id).filter((id) => inRound.has(id));
  return [...seated, ...[...inRound].filter((id) => !seated.includes(id))];
}

export function reasonText(t: T, reason: string): string {
  const text = t(`reason.${reason}`);
  return text.startsWith("⟦") ? reason : text;
}

function GameOver({ view, room, isHost, send }: { view: GameView; room: RoomState; isHost: boolean; send: Send }) {
  const { t } = useI18n();
  const ranking = [...view.players].sort((a, b) => (view.scores[b] ?? 0) - (view.scores[a] ?? 0));
  const winners = names(room, view.winners);
  return (
    <section class="panel over" data-testid="game-over">
      <h2>{t("over.title")}</h2>
      {view.winners.length > 0 ? (
        <p class="winners" data-testid="winners">🏆 {view.winners.length > 1 ? t("over.winners", { names: winners }) : t("over.winner", { names: winners })}</p>
      ) : (
        <p class="winners" data-testid="winners">{t("over.ended")}</p>
      )}
      <ol class="ranking">
        {ranking.map((p) => (
          <li key={p}>
            <RabbitIcon color={rabbitHex(room.seats.find((s) => s.id === p)?.colour)} size={26} />
            <span>{seatName(room, p)}</span>
            <strong>{view.scores[p] ?? 0}</strong>
          </li>
        ))}
      </ol>
      <div class="over-actions">
        {isHost ? <button class="btn btn-primary btn-big" onClick={() => send({ type: "rematch" })} data-testid="rematch">{t("over.rematch")}</button> : null}
        <button class="btn" onClick={() => navigate("/")}>{t("over.home")}</button>
      </div>
    </section>
  );
}

function HostControls({ view, room, send }: { view: GameView; room: RoomState; send: Send }) {
  const { t } = useI18n();
  const late = view.waiting_for.filter((id) => {
    const seat = room.seats.find((s) => s.id === id);
    return seat && !seat.is_bot;
  });
  return (
    <details class="panel host" data-testid="host-controls">
      <summary>{t("host.controls")}</summary>
      {late.map((id) => (
        <button key={id} class="btn btn-small" onClick={() => send({ type: "set_bot", seat: id, bot: true })}>
          {t("host.botFor", { name: seatName(room, id) })}
        </button>
      ))}
      <button class="btn btn-small btn-danger" onClick={() => send({ type: "end_game" })}>{t("host.end")}</button>
    </details>
  );
}

export function Game({ state, send }: { state: ClientState; send: Send }) {
  const { t } = useI18n();
  const view = shownView(state)!;
  const room = state.room!;
  const legal = view.legal;
  const [selected, setSelected] = useState<string[]>([]);
  const [clue, setClue] = useState("");
  const [zoom, setZoom] = useState<{ cards: RowCard[]; index: number; select?: (id: string) => void } | null>(null);

  useEffect(() => setSelected([]), [view.phase, view.round]);
  useEffect(() => setClue(""), [view.round]);

  const phase = view.phase;
  const hand = view.hand ?? [];
  const choosableHand = phase === "clue" ? legal.give_clue : phase === "submit" ? legal.submit : [];
  const need = phase === "submit" ? Math.max(1, legal.submit_count) : 1;
  const pending = isPending(state, "give_clue") || isPending(state, "submit_cards") || isPending(state, "cast_vote");

  function toggle(id: string, allowed: string[]) {
    if (!allowed.includes(id)) return;
    setSelected((cur) => {
      if (cur.includes(id)) return cur.filter((c) => c !== id);
      const next = [...cur, id];
      return next.length > need ? next.slice(next.length - need) : next;
    });
  }

  const handCards: RowCard[] = hand.map((id, i) => ({
    id,
    alt: cardAlt(t, i),
    choosable: choosableHand.includes(id),
    selected: selected.includes(id),
  }));
  const tableCards: RowCard[] = view.table.map((id, i) => ({
    id,
    alt: t("game.tableCard", { n: i + 1 }),
    number: i + 1,
    choosable: legal.vote.includes(id),
    selected: selected.includes(id) || view.my_vote === id,
    tag: view.my_cards.includes(id) ? t("game.yourCard") : view.my_vote === id ? t("game.yourVote") : undefined,
  }));

  const handSelectable = choosableHand.length > 0;
  const voting = legal.vote.length > 0;
  const [dismissed, setDismissed] = useState(0);
  const reveal = revealedRound(view, dismissed);
  const teller = view.storyteller ? seatName(room, view.storyteller) : "";
  const trackPlayers = view.players.map((id) => ({ id, name: seatName(room, id), color: rabbitHex(room.seats.find((s) => s.id === id)?.colour), score: view.scores[id] ?? 0 }));
  const gained = reveal ? new Map([...roundPoints(reveal)].map(([p, e]) => [p, e.total])) : undefined;
  const tableNumber = (id: string) => view.table.indexOf(id) + 1;

  function act() {
    if (phase === "clue" && selected[0] && clue.trim()) send({ type: "give_clue", card: selected[0], clue: clue.trim() });
    else if (phase === "submit" && selected.length === need) send({ type: "submit_cards", cards: selected as [string, ...string[]] });
    else if (phase === "vote" && selected[0]) send({ type: "cast_vote", card: selected[0] });
  }

  let action: preact.ComponentChildren = null;
  if (phase === "clue" && legal.give_clue.length > 0) {
    action = (
      <form class="actionbar actionbar--clue" onSubmit={(e) => { e.preventDefault(); act(); }}>
        <label class="sr-only" for="clue-input">{t("game.clueLabel")}</label>
        <input id="clue-input" value={clue} maxLength={legal.max_clue_length || undefined} placeholder={t("game.cluePlaceholder")} onInput={(e) => setClue(e.currentTarget.value)} data-testid="clue-input" autoComplete="off" />
        <button class="btn btn-primary" type="submit" disabled={!selected[0] || !clue.trim() || pending} data-testid="tell">
          {selected[0] ? t("game.tell") : t("game.chooseCard")}
        </button>
      </form>
    );
  } else if (phase === "submit" && legal.submit.length > 0) {
    action = (
      <div class="actionbar">
        {need > 1 ? <span class="muted">{t("game.selectedCount", { n: selected.length, total: need })}</span> : null}
        <button class="btn btn-primary" onClick={act} disabled={selected.length !== need || pending} data-testid="submit">
          {selected.length === 0 ? t("game.chooseCard") : need > 1 ? t("game.submitTwo") : t("game.submit")}
        </button>
      </div>
    );
  } else if (voting) {
    action = (
      <div class="actionbar">
        <button class="btn btn-primary" onClick={act} disabled={!selected[0] || pending} data-testid="vote">
          {selected[0] ? t("game.vote", { n: tableNumber(selected[0]) }) : t("game.chooseCard")}
        </button>
      </div>
    );
  }

  const submittedNote = phase === "submit" && view.my_cards.length > 0 && view.viewer !== view.storyteller;
  const votedNote = phase === "vote" && view.my_vote !== null;

  return (
    <main class={`game phase-${phase}`} data-testid="game" data-phase={phase} data-round={view.round}>
      <Banner view={view} room={room} />
      <div class="game-grid">
        <div class="game-main">
          {phase === "over" ? <GameOver view={view} room={room} isHost={Boolean(state.you?.is_host)} send={send} /> : null}
          {reveal ? <Reveal result={reveal} room={room} onZoom={(cards, index) => setZoom({ cards, index })} onClose={phase === "over" ? undefined : () => setDismissed(reveal.round)} /> : null}
          {view.clue && phase !== "over" && phase !== "clue" ? <ClueBubble clue={view.clue} teller={teller} /> : null}
          {phase === "submit" ? (
            <div class="facedown" aria-label={t("game.cardsIn", { n: view.acted.length + 1 })}>
              {Array.from({ length: view.acted.length + 1 }, (_, i) => <span key={i} class="card-back" />)}
            </div>
          ) : null}
          {view.table.length > 0 && phase === "vote" ? (
            <section class="table-area">
              <h2 class="section-title">{t("game.table")}</h2>
              <CardRow cards={tableCards} label={t("game.table")} kind="table" onSelect={voting ? (id) => toggle(id, legal.vote) : undefined} onZoom={(i) => setZoom({ cards: tableCards, index: i, select: voting ? (id) => toggle(id, legal.vote) : undefined })} t={t} />
            </section>
          ) : null}
          {submittedNote ? <p class="note" data-testid="submitted">{t("game.submitted")}</p> : null}
          {votedNote ? <p class="note" data-testid="voted">{t("game.voted")}</p> : null}
          {phase !== "over" && hand.length > 0 ? (
            <section class="hand-area">
              <h2 class="section-title">{t("game.yourHand")}</h2>
              <CardRow cards={handCards} label={t("game.yourHand")} kind="hand" onSelect={handSelectable ? (id) => toggle(id, choosableHand) : undefined} onZoom={(i) => setZoom({ cards: handCards, index: i, select: handSelectable ? (id) => toggle(id, choosableHand) : undefined })} t={t} />
            </section>
          ) : null}
          {action}
        </div>
        <aside class="game-side">
          <Players view={view} room={room} gained={gained} />
          <ScoreTrack players={trackPlayers} label={t("game.scores")} target={view.rules.end_at_score} />
          {state.you?.is_host && phase !== "over" ? <HostControls view={view} room={room} send={send} /> : null}
        </aside>
      </div>
      {zoom ? <Zoom cards={zoom.cards.map((c) => ({ ...c, selected: selected.includes(c.id) }))} start={zoom.index} onClose={() => setZoom(null)} onSelect={zoom.select} t={t} /> : null}
    </main>
  );
}
