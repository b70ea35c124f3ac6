import { useEffect, useState } from "preact/hooks";
import type { T } from "../i18n";

/** A ring that empties as a turn timer runs out. `deadline` is epoch ms; `total` seconds. */
export function TimerRing({ deadline, total, t }: { deadline: number; total: number; t: T }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(id);
  }, [deadline]);
  const left = Math.max(0, Math.ceil((deadline - now) / 1000));
  const frac = total > 0 ? Math.min(1, Math.max(0, (deadline - now) / (total * 1000))) : 0;
  const C = 2 * Math.PI * 16;
  return (
    <div class={`timer${left <= 10 ? " is-urgent" : ""}`} role="timer" aria-label={t("game.timeLeft", { s: left })} data-testid="timer">
      <svg viewBox="0 0 40 40" width="44" height="44" aria-hidden="true">
        <circle cx="20" cy="20" r="16" class="timer-bg" />
        <circle cx="20" cy="20" r="16" class="timer-fg" stroke-dasharray={`${C * frac} ${C}`} transform="rotate(-90 20 20)" />
      </svg>
      <span>{left}</span>
    </div>
  );
}
