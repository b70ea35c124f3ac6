import { useI18n } from "../i18n/context";
import type { RoomSettings } from "../protocol";

/** The rules this room will play, said before Start: edition, mode, the 3-player variant, the lone
 * finder bonus, how it ends, and the timers. */
export function RulesSummary({ settings, players }: { settings: RoomSettings; players: number }) {
  const { t } = useI18n();
  const edition = settings.edition ?? "classic";
  const lone = settings.lone_finder_bonus ?? (edition === "classic" && players === 3);
  const timers = settings.timers ?? {};
  const timed = (["clue", "submit", "vote", "bank"] as const).filter((k) => timers[k]);
  const mode = settings.mode ?? "standard";
  const lines: string[] = [t(`summary.${edition}`)];
  if (mode !== "standard") lines.push(t(`rules.mode.${mode}.about`));
  else if (edition === "odyssey") lines.push(t("summary.twoVotes"));
  if (players === 3) lines.push(t("summary.three"));
  if (lone) lines.push(t("summary.lone"));
  // Party play ends when everyone has told once, not at a score.
  const endAt = settings.end_at_score ?? (edition !== "classic" && mode !== "party" ? 30 : null);
  if (endAt) lines.push(t("summary.endAt", { count: endAt }));
  if (settings.max_rounds) lines.push(t("summary.maxRounds", { count: settings.max_rounds }));
  lines.push(
    timed.length === 0
      ? t("summary.noTimers")
      : t("summary.timers", { list: timed.map((k) => `${t(`rules.timer.${k}`)} ${timers[k]} s`).join(", ") }),
  );
  return (
    <details class="rules-summary" open data-testid="rules-summary">
      <summary>{t("summary.title")}</summary>
      <ul>{lines.map((l) => <li key={l}>{l}</li>)}</ul>
    </details>
  );
}
