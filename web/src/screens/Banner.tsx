import { useEffect, useState } from "preact/hooks";
import { TimerRing } from "../components/TimerRing";
import { useI18n } from "../i18n/context";
import type { T } from "../i18n";
import type { GameView, RoomState } from "../protocol";
import { seatName, turn, type Turn } from "../state/reducer";
import { isMine } from "../state/turnMoment";

export function names(room: RoomState, ids: string[]): string {
  return ids.map((id) => seatName(room, id)).join(", ");
}

export function turnText(t: T, tn: Turn, room: RoomState): string {
  // Every person late or away: nobody is asked for anything until one of them is back.
  if (room.paused && tn.kind !== "over" && tn.kind !== "lobby") return t("turn.paused");
  switch (tn.kind) {
    case "lobby": return t("lobby.waitingHost");
    case "yourClue": return t("turn.yourClue");
    case "claimClue": return t("turn.claimClue");
    case "waitClue": return tn.storyteller ? t("turn.waitClue", { name: seatName(room, tn.storyteller) }) : t("turn.claimWait");
    case "yourSubmit": return tn.count > 1 ? t("turn.yourSubmitTwo", { n: tn.count }) : t("turn.yourSubmit");
    case "waitSubmit": return t("turn.waitSubmit", { names: names(room, tn.waiting) });
    case "yourVote": return t(tn.void ? "turn.yourVoid" : tn.party ? "turn.yourPartyVote" : "turn.yourVote");
    case "waitVote": return t(tn.storyteller ? "turn.storytellerWaitVote" : "turn.waitVote", { names: names(room, tn.waiting) });
    case "over": return t("turn.over");
  }
}

/** Whose turn it is, the round, the piles and (while cards are chosen) the clue with its
 * storyteller: sticky on top, so the clue stays in sight while scrolling through the cards. The
 * clue takes one line, the storyteller's name always whole; a tap shows the whole clue, wrapped,
 * until the next tap. With `clueSlot`, while the clue is still being thought of, its line is held
 * by a quiet "…": the banner keeps one height through the round, so the cards below it do not
 * jump when the clue arrives. `onHistory` and `onDiscard` open the past rounds and the 2021
 * discard pile. */
export function Banner({ view, room, clue, teller, clueSlot, onHistory, onDiscard }: { view: GameView; room: RoomState; clue?: string | null; teller?: string; clueSlot?: boolean; onHistory?: () => void; onDiscard?: () => void }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [view.round]);
  const tn = turn(view);
  const mine = isMine(tn);
  const d = room.deadline;
  const discard = <Count long={t("game.discard", { n: view.discard_count })} short={t("game.discardShort", { n: view.discard_count })} />;
  return (
    <div id="banner" tabIndex={-1} class={`banner${mine ? " banner--mine" : ""}${open ? " is-open" : ""}`} role="status" aria-live="polite" data-testid="banner" data-turn={tn.kind} data-phase={view.phase}>
      <div class="banner-meta">
        <span>{t("game.round", { n: view.round })}</span>
        <span data-testid="pile"><Count long={t("game.pile", { n: view.pile_count })} short={t("game.pileShort", { n: view.pile_count })} /></span>
        {view.rules.reshuffle_discards ? (
          onDiscard && view.discard_count > 0
            ? <button type="button" class="banner-link" onClick={onDiscard} data-testid="discard">{discard}</button>
            : <span data-testid="discard">{discard}</span>
        ) : null}
        {onHistory && view.rounds.length > 0 ? <button type="button" class="banner-link banner-link--history" onClick={onHistory} data-testid="open-history"><span aria-hidden="true">↺</span> <span class="banner-link-text">{t("history.open")}</span></button> : null}
      </div>
      <div class="banner-body">
        <p class="banner-text">{turnText(t, tn, room)}</p>
        {clue ? (
          <button type="button" class="banner-clue" aria-expanded={open ? "true" : "false"} onClick={() => setOpen((o) => !o)} data-testid="banner-clue" title={open ? undefined : t("game.wholeClue")}>
            {teller ? <span class="banner-teller">{teller}:</span> : null}
            <q>{clue}</q>
          </button>
        ) : null}
        {!clue && clueSlot ? <p class="banner-clue banner-clue--slot" aria-hidden="true">{teller ? <span class="banner-teller">{teller}:</span> : null}<q>…</q></p> : null}
      </div>
      {d && d.phase === view.phase ? <TimerRing deadline={d.at} total={d.seconds} t={t} /> : null}
    </div>
  );
}

/** A pile's count: its whole label, and on a phone a short one in sight (the whole one still
 * read out), so the banner's top line is never cut. */
function Count({ long, short }: { long: string; short: string }) {
  return <><span class="count-long">{long}</span><span class="count-short" aria-hidden="true">{short}</span></>;
}

export function ClueBubble({ clue, teller }: { clue: string; teller: string }) {
  const { t } = useI18n();
  return (
    <blockquote class="clue" data-testid="clue">
      <span class="clue-by">{t("game.clue")} — {teller}</span>
      <q class={`clue-text${clue.length > 80 ? " clue-text--long" : ""}`} data-testid="clue-text">{clue}</q>
    </blockquote>
  );
}
