/**
 * Talking at the table: the chat lines, the muted seats and the reactions still on show, as a
 * pure function of the server's `talk`, `chat` and `reaction` messages.
 */
import type { Chat, ChatLine, Reaction, Talk } from "../protocol";

export type ReactionName = Reaction["reaction"];
/** The fixed set, in the order the buttons show them (the server accepts only these). */
export const REACTIONS: readonly ReactionName[] = ["like", "laugh", "wow", "love", "think", "clap", "rabbit", "party"];
export const REACTION_EMOJI: Record<ReactionName, string> = {
  like: "👍",
  laugh: "😂",
  wow: "😮",
  love: "😍",
  think: "🤔",
  clap: "👏",
  rabbit: "🐰",
  party: "🎉",
};
export const MAX_CHAT_LENGTH = 200;
const KEEP_LINES = 50;
const KEEP_REACTIONS = 6;
/** How long a reaction stays on the table. */
export const REACTION_MS = 4000;

export interface ShownReaction {
  key: number;
  seat: string;
  reaction: ReactionName;
  /** When this client received it (performance.now() or Date.now(), the caller's clock). */
  shownAt: number;
}

export interface TalkState {
  lines: ChatLine[];
  muted: string[];
  reactions: ShownReaction[];
  /** Lines received since the welcome (not the history): what is "new" for an unread count. */
  received: number;
  nextKey: number;
}

export const initialTalk: TalkState = { lines: [], muted: [], reactions: [], received: 0, nextKey: 1 };

export function reduceTalk(state: TalkState, msg: Talk | Chat | Reaction, now: number = Date.now()): TalkState {
  switch (msg.type) {
    case "talk":
      return { ...state, lines: msg.lines.slice(-KEEP_LINES), muted: msg.muted };
    case "chat":
      if (state.lines.some((l) => l.id === msg.line.id)) return state;
      return { ...state, lines: [...state.lines, msg.line].slice(-KEEP_LINES), received: state.received + 1 };
    case "reaction": {
      const fresh = state.reactions.filter((r) => now - r.shownAt < REACTION_MS);
      const shown = { key: state.nextKey, seat: msg.seat, reaction: msg.reaction, shownAt: now };
      return { ...state, reactions: [...fresh, shown].slice(-KEEP_REACTIONS), nextKey: state.nextKey + 1 };
    }
  }
}

const HIDDEN_KEY = "dixit.talk.hidden";

/** Whether this player has hidden the chat and reactions (remembered on this device). */
export function talkHidden(): boolean {
  try { return localStorage.getItem(HIDDEN_KEY) === "1"; } catch { return false; }
}
export function setTalkHidden(hidden: boolean): void {
  try { localStorage.setItem(HIDDEN_KEY, hidden ? "1" : "0"); } catch { /* private mode: this visit only */ }
}
