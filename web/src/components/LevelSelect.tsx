import { useI18n } from "../i18n/context";
import type { Seat } from "../protocol";

export type BotLevel = NonNullable<Seat["bot_level"]>;
export const BOT_LEVELS: readonly BotLevel[] = ["random", "easy", "medium", "strong"];

/** How well a computer player plays: a select for the host. */
export function LevelSelect({ value, onChange, label, testid }: { value: BotLevel; onChange: (l: BotLevel) => void; label: string; testid: string }) {
  const { t } = useI18n();
  return (
    <select class="level" value={value} aria-label={label} onChange={(e) => onChange(e.currentTarget.value as BotLevel)} data-testid={testid}>
      {BOT_LEVELS.map((l) => <option key={l} value={l}>{t(`bot.level.${l}`)}</option>)}
    </select>
  );
}
