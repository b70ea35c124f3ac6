/** The one-line tips of a first game, on until the player turns them off (kept on this device). */
import { useState } from "preact/hooks";
import type { Turn } from "./reducer";

const KEY = "dixit.hints";

export function hintsOn(): boolean {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

export function useHints(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(hintsOn);
  return [on, (next: boolean) => {
    setOn(next);
    try { localStorage.setItem(KEY, next ? "on" : "off"); } catch { /* private mode: this page only */ }
  }];
}

/** The tip's key for a turn, or null where there is none. */
export function hintKey(turn: Turn["kind"]): string | null {
  switch (turn) {
    case "yourClue":
    case "claimClue": return "hint.yourClue";
    case "waitClue": return "hint.waitClue";
    case "yourSubmit": return "hint.yourSubmit";
    case "waitSubmit": return "hint.waitSubmit";
    case "yourVote": return "hint.yourVote";
    case "waitVote": return "hint.waitVote";
    default: return null;
  }
}
