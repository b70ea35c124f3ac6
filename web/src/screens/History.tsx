import { useLayoutEffect, useRef } from "preact/hooks";
import type { RowCard } from "../components/CardRow";
import { useI18n } from "../i18n/context";
import type { RoomState, RoundResult } from "../protocol";
import { RoundBody } from "./Reveal";

/** Every revealed round of the game, newest first, over the table: what was told, who played
 * and voted what, and the points. Public once revealed; nothing of the round in play. */
export function History({ rounds, room, onZoom, onClose }: { rounds: RoundResult[]; room: RoomState; onZoom: (cards: RowCard[], i: number) => void; onClose: () => void }) {
  const { t } = useI18n();
  const closeRef = useRef<HTMLButtonElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !document.querySelector(".zoom")) close.current();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      before?.focus?.();
    };
  }, []);
  return (
    <div class="history" role="dialog" aria-modal="true" aria-labelledby="history-title" data-testid="history">
      <div class="history-head">
        <h2 id="history-title">{t("history.title")}</h2>
        <button type="button" class="btn" ref={closeRef} onClick={onClose} data-testid="history-close">{t("game.close")}</button>
      </div>
      {rounds.length === 0 ? <p class="muted">{t("history.none")}</p> : null}
      {[...rounds].reverse().map((r) => (
        <section key={r.round} class="panel history-round" data-testid="history-round" data-round={r.round} aria-labelledby={`history-${r.round}`}>
          <h3 id={`history-${r.round}`}>{t("game.round", { n: r.round })}</h3>
          <RoundBody result={r} room={room} onZoom={onZoom} />
        </section>
      ))}
    </div>
  );
}
