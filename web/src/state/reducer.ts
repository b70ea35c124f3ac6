/**
 * The client's state: a pure function of the messages the server sent and the connection's
 * life. No game rules live here: what may be done comes from the server's `legal` actions.
 */
import type {
  ClientMessage,
  GameView,
  Notice,
  RoomSettings,
  RoomState,
  RoundResult,
  ServerMessage,
  You,
} from "../protocol";
import { initialTalk, reduceTalk, type TalkState } from "./talk";

export type ConnStatus = "idle" | "connecting" | "open" | "reconnecting" | "closed";

export interface Problem {
  code: string;
  message: string;
}

export interface ClientState {
  conn: ConnStatus;
  attempt: number;
  you: You | null;
  room: RoomState | null;
  view: GameView | null;
  /** Commands sent and not yet answered, by id. */
  pending: Record<string, ClientMessage>;
  error: Problem | null;
  notices: Notice[];
  /** The server closed this seat (kicked, left): do not reconnect. */
  closed: Problem | null;
  talk: TalkState;
  /** Every revealed round of this game seen so far, oldest first: the welcome brings them all,
   * each later view only the latest (`hello.rounds: "catch_up"`). */
  rounds: RoundResult[];
}

export type Action =
  | { kind: "server"; msg: ServerMessage }
  | { kind: "conn"; status: ConnStatus; attempt?: number }
  | { kind: "sent"; id: string; command: ClientMessage }
  | { kind: "dismiss" }
  | { kind: "fail"; problem: Problem };

export const initialState: ClientState = {
  conn: "idle",
  attempt: 0,
  you: null,
  room: null,
  view: null,
  pending: {},
  error: null,
  notices: [],
  closed: null,
  talk: initialTalk,
  rounds: [],
};

function without<V>(record: Record<string, V>, key: string | null | undefined): Record<string, V> {
  if (!key || !(key in record)) return record;
  const copy = { ...record };
  delete copy[key];
  return copy;
}

/** The rounds kept, with those a view brings (by round number: a round seen again replaces itself). */
export function keepRounds(kept: RoundResult[], incoming: RoundResult[]): RoundResult[] {
  if (incoming.length === 0) return kept;
  const byRound = new Map(kept.map((r) => [r.round, r]));
  for (const r of incoming) byRound.set(r.round, r);
  return [...byRound.values()].sort((a, b) => a.round - b.round);
}

/** Take a game view unless it is older than the one we hold (messages can cross a reconnect). */
function takeView(current: GameView | null, next: GameView, reset: boolean): GameView {
  if (!current || reset || next.version >= current.version) return next;
  return current;
}

export function reduce(state: ClientState, action: Action): ClientState {
  switch (action.kind) {
    case "conn":
      return {
        ...state,
        conn: action.status,
        attempt: action.attempt ?? (action.status === "open" ? 0 : state.attempt),
      };
    case "sent":
      return { ...state, pending: { ...state.pending, [action.id]: action.command }, error: null };
    case "dismiss":
      return { ...state, error: null };
    case "fail":
      return { ...state, error: action.problem };
    case "server":
      return onServer(state, action.msg);
  }
}

function onServer(state: ClientState, msg: ServerMessage): ClientState {
  switch (msg.type) {
    case "welcome": {
      const view = msg.game ? takeView(state.view, msg.game.view, msg.game.reset) : null;
      // Back after the computer played our seat: say so here too (the room's notice went out
      // to the others before this socket joined).
      const mine = (room: RoomState | null) => room?.seats.find((s) => s.id === msg.you.seat);
      const was = mine(state.room);
      const back = was?.autoplay === true && mine(msg.room)?.autoplay === false;
      const notices: Notice[] = back
        ? [...state.notices.slice(-2), { type: "notice", v: 1, code: "seat/reclaimed", message: "", seat: msg.you.seat }]
        : state.notices;
      const sameGame = state.room !== null && state.room.game_number === msg.room.game_number && msg.room.status !== "lobby";
      const kept = sameGame ? state.rounds : [];
      return {
        ...state,
        notices,
        you: msg.you,
        room: msg.room,
        view: msg.room.status === "lobby" ? null : view ?? state.view,
        closed: null,
        rounds: msg.game && msg.room.status !== "lobby" ? keepRounds(kept, msg.game.view.rounds) : kept,
      };
    }
    case "game":
      return { ...state, view: takeView(state.view, msg.view, msg.reset), rounds: keepRounds(state.rounds, msg.view.rounds) };
    case "room": {
      const rematch =
        msg.room.status === "lobby" ||
        (state.room !== null && msg.room.game_number !== state.room.game_number);
      return { ...state, room: msg.room, you: msg.you, view: rematch ? null : state.view, rounds: rematch ? [] : state.rounds };
    }
    case "ack":
      return { ...state, pending: without(state.pending, msg.id) };
    case "error":
      return {
        ...state,
        pending: without(state.pending, msg.id),
        error: { code: msg.code, message: msg.message },
      };
    case "notice":
      return { ...state, notices: [...state.notices.slice(-2), msg] };
    case "closed":
      return { ...state, closed: { code: msg.code, message: msg.message }, conn: "closed" };
    case "pong":
      return state;
    case "talk":
    case "chat":
    case "reaction":
      return { ...state, talk: reduceTalk(state.talk, msg) };
  }
}

/**
 * The view to show. When the room says the game is over (the host ended it) while the game's own
 * view has not reached its end, it is over all the same: nothing is playable any more.
 */
export function shownView(state: ClientState): GameView | null {
  const view = state.view;
  if (!view || state.room?.status !== "over" || view.phase === "over") return view;
  return {
    ...view,
    phase: "over",
    waiting_for: [],
    legal: { give_clue: [], submit: [], submit_count: 0, vote: [], max_clue_length: 0, vote_count: 0, void: [] },
  };
}

/** The last game version this client saw, sent as `since` when it reconnects. */
export function lastVersion(state: ClientState): number | null {
  return state.view ? state.view.version : null;
}

// ---------------------------------------------------------------------------- selectors

export function seatName(room: RoomState | null, id: string | null | undefined): string {
  if (!room || !id) return "";
  return room.seats.find((s) => s.id === id)?.name ?? id;
}

export type Turn =
  | { kind: "lobby" }
  | { kind: "yourClue" }
  | { kind: "claimClue" }
  | { kind: "waitClue"; storyteller: string }
  | { kind: "yourSubmit"; count: number }
  | { kind: "waitSubmit"; waiting: string[] }
  /** `void`: party play, the storyteller voids a picture first; `party`: everyone votes. */
  | { kind: "yourVote"; void?: boolean; party?: boolean }
  | { kind: "waitVote"; waiting: string[]; storyteller: boolean }
  | { kind: "over" };

/** What the banner says: whose turn it is and who is still awaited. Only from the view. */
export function turn(view: GameView | null): Turn {
  if (!view) return { kind: "lobby" };
  const legal = view.legal;
  switch (view.phase) {
    case "setup":
      return { kind: "lobby" };
    case "clue":
      if (legal.give_clue.length > 0)
        return view.storyteller === null ? { kind: "claimClue" } : { kind: "yourClue" };
      return { kind: "waitClue", storyteller: view.storyteller ?? "" };
    case "submit":
      if (legal.submit.length > 0) return { kind: "yourSubmit", count: legal.submit_count };
      return { kind: "waitSubmit", waiting: view.waiting_for };
    case "vote":
      if (legal.void.length > 0) return { kind: "yourVote", void: true };
      if (legal.vote.length > 0) return view.rules.everyone_votes ? { kind: "yourVote", party: true } : { kind: "yourVote" };
      return {
        kind: "waitVote",
        waiting: view.waiting_for,
        storyteller: view.viewer !== null && view.viewer === view.storyteller,
      };
    case "over":
      return { kind: "over" };
  }
}

/**
 * The round to show as revealed: the last scored round, always at game over. For a player
 * (`dismissed`: the last round they closed) it stays until they close it, whatever the game
 * does meanwhile; for a spectator (`dismissed` null) until the next table is laid.
 */
export function revealedRound(view: GameView | null, dismissed: number | null = null) {
  if (!view || view.rounds.length === 0) return null;
  const last = view.rounds[view.rounds.length - 1]!;
  if (view.phase === "over") return last;
  if (last.round !== view.round - 1) return null;
  if (dismissed !== null) return last.round > dismissed ? last : null;
  return view.phase === "clue" || view.phase === "submit" ? last : null;
}

/**
 * The cards in the 2021 discard pile, newest first. The pile is the tables of the latest rounds
 * (a reshuffle empties it), so they are the last `discard_count` revealed table cards.
 */
export function discardPile(rounds: RoundResult[], discardCount: number): string[] {
  const out: string[] = [];
  for (const r of [...rounds].reverse()) {
    for (const c of r.table) if (out.length < discardCount) out.push(c);
  }
  return out;
}

/** Points each player got in a round, with the reasons, in the order awarded. */
export function roundPoints(result: {
  awards: { player: string; points: number; reason: string }[];
}): Map<string, { total: number; reasons: { points: number; reason: string }[] }> {
  const out = new Map<string, { total: number; reasons: { points: number; reason: string }[] }>();
  for (const a of result.awards) {
    const entry = out.get(a.player) ?? { total: 0, reasons: [] };
    entry.total += a.points;
    entry.reasons.push({ points: a.points, reason: a.reason });
    out.set(a.player, entry);
  }
  return out;
}

/** The room's settings as last asked for: a change still on its way counts, so quick changes
 * (a name, then a language) build on each other instead of undoing one another. */
export function wantedSettings(state: ClientState): RoomSettings {
  const asked = Object.values(state.pending).filter((c) => c.type === "update_settings").pop();
  return asked && asked.type === "update_settings" ? asked.settings : state.room!.settings;
}

export function isPending(state: ClientState, type: ClientMessage["type"]): boolean {
  return Object.values(state.pending).some((c) => c.type === type);
}
