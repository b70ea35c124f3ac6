/** The player's name, remembered on this device for the next room. */
const NAME_KEY = "dixit.name";

export function rememberedName(): string {
  try { return localStorage.getItem(NAME_KEY) ?? ""; } catch { return ""; }
}

export function rememberName(name: string): void {
  try { localStorage.setItem(NAME_KEY, name); } catch { /* storage disabled: not remembered */ }
}
