/**
 * The clock a player feels: a nudge as their turn's timer runs out (a countdown line, a buzz
 * and a chime once, at 10 s; the time bank they are drawing on), "I'm here" with the account of what a timer or the computer played
 * for them, a paused table, and who may claim the opening clue and when the computer will.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { T } from "../i18n";
import type { GameView, RoomState, Seat } from "../protocol";
import type { Send } from "../net/socket";
import { chime } from "../sound";
import { reducedMotion, scrollBelowBanner } from "../state/turnMoment";

const NUDGE_S = 10;

/** "m:ss" of the whole seconds from now to `at` (Unix ms), never below 0:00. */
export function clock(at: number, now: number): string {
  const s = Math.max(0, Math.ceil((at - now) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Whether the whole of `el` is on screen, under the banner. */
function inSight(el: Element | null): boolean {
  if (!el) return false;
  const box = el.getBoundingClientRect();
  const banner = document.querySelector(".banner");
  return box.top >= (banner ? banner.getBoundingClientRect().bottom : 0) && box.bottom <= innerHeight;
}

function useNow(running: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) return undefined;
    const id = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(id);
  }, [running]);
  return now;
}

interface Props {
  room: RoomState;
  view: GameView;
  me: string | null;
  send: Send;
  t: T;
}

export function AtTheTable({ room, view, me, send, t }: Props) {
  const seat: Seat | undefined = room.seats.find((s) => s.id === me);
  const deadline = room.deadline;
  const waitedOn = Boolean(me && deadline && deadline.players.includes(me) && deadline.phase === view.phase);
  const claim = room.claim && view.phase === "clue" && view.storyteller === null ? room.claim : null;
  const now = useNow(waitedOn || claim !== null);
  const hurry = waitedOn && deadline !== null && deadline.at - now <= NUDGE_S * 1000 && deadline.at > now;

  const nudged = useRef<string | null>(null);
  useEffect(() => {
    if (!hurry || !deadline) return;
    const key = `${deadline.phase}:${deadline.version}:${deadline.at}`;
    if (nudged.current === key) return;
    nudged.current = key;
    if (!reducedMotion()) navigator.vibrate?.([120, 80, 120]);
    chime();
  }, [hurry, deadline]);

  const account = seat?.played_for ?? [];
  const away = Boolean(seat && (seat.late || seat.autoplay));
  const asking = room.paused || away || account.length > 0;
  const panel = useRef<HTMLElement>(null);
  // It asks something of the player: brought into sight when it comes (the page may be
  // scrolled anywhere when a timer plays for them), unless it is in sight already (a phone holds
  // it above the action bar): the page then stays where it is.
  useEffect(() => {
    if (asking) requestAnimationFrame(() => { if (!inSight(panel.current)) scrollBelowBanner(panel.current); });
  }, [asking, room.paused]);
  const parts: preact.ComponentChildren[] = [];

  const banking = waitedOn && deadline !== null && deadline.bank && deadline.at > now;
  if ((hurry || banking) && deadline) {
    parts.push(
      <p key="hurry" class="note note--hurry" role="status" data-testid="hurry">
        {t(banking ? "clock.bank" : "clock.hurry", { time: clock(deadline.at, now) })}
      </p>,
    );
  }
  if (claim) {
    const by = room.seats.find((s) => s.id === claim.by);
    const when = claim.at > now ? t("clock.claimComputer", { name: by?.name ?? "", time: clock(claim.at, now) }) : t("clock.claimComputerNow", { name: by?.name ?? "" });
    parts.push(
      <p key="claim" class="note note--claim" data-testid="claim">
        {t("clock.claimOpen")} {by ? when : null}
      </p>,
    );
  }
  if (asking) {
    parts.push(
      <section key="away" ref={panel} class="away" role="status" aria-live="polite" data-testid="away">
        <p>{room.paused ? t("clock.paused") : seat?.autoplay ? t("clock.autoplay") : seat?.late ? t("clock.late") : t("clock.account")}</p>
        {account.length > 0 ? (
          <ul class="away-account" data-testid="account">
            {account.map((p, i) => (
              <li key={i}>{p.phase === "clue" ? t("clock.playedClue", { n: p.round, clue: p.clue ?? "" }) : t(p.phase === "submit" ? "clock.playedSubmit" : "clock.playedVote", { n: p.round })}</li>
            ))}
          </ul>
        ) : null}
        {me ? (
          <button type="button" class="btn btn-primary" onClick={() => send({ type: "here" })} data-testid="here">
            {t("clock.here")}
          </button>
        ) : null}
      </section>,
    );
  }
  return parts.length ? <div class="at-the-table">{parts}</div> : null;
}
