import type { T } from ".";

/** An error code in the player's words: its own string where there is one, else a generic line. */
export function errorText(t: T, code: string): string {
  const text = t(`error.${code}`);
  return text.startsWith("⟦") ? t("error.generic", { code }) : text;
}
