import type { GameView, RoomState, ServerMessage } from "../src/protocol";

export function room(over: Partial<RoomState> = {}): RoomState {
  return {
    code: "KX7QMB",
    status: "lobby",
    game_number: 1,
    host: "p1",
    seats: [
      { id: "p1", name: "Ann", colour: "blue", is_host: true, is_bot: false, bot_kind: null, bot_level: null, connected: true, left: false, autoplay: false, late: false, bank_left: null, played_for: [] },
      { id: "p2", name: "Bo", colour: "green", is_host: false, is_bot: false, bot_kind: null, bot_level: null, connected: true, left: false, autoplay: false, late: false, bank_left: null, played_for: [] },
      { id: "p3", name: "Cy", colour: "red", is_host: false, is_bot: true, bot_kind: "random", bot_level: "random", connected: true, left: false, autoplay: false, late: false, bank_left: null, played_for: [] },
    ],
    spectators: 0,
    settings: {},
    deadline: null,
    reveal: null,
    paused: false,
    claim: null,
    version: 0,
    bots_can_read: true,
    cards_needed: 28,
    ...over,
  };
}

export function view(over: Partial<GameView> = {}): GameView {
  return {
    viewer: "p1",
    version: 3,
    rules: { edition: "classic", min_players: 3, max_players: 6, hand_size: 6, three_player_hand_size: 7, three_player_cards_each: 2, lone_finder_bonus: null, reshuffle_discards: false, end_at_score: null, max_rounds: null, clue_max_length: 200, two_votes_from: null, votes_received_cap: null, single_vote_bonus: 0, mode: "standard", everyone_votes: false, party_cap: 5, pass_hands: false, storyteller_turns: null, team_size: 1 },
    players: ["p1", "p2", "p3"],
    phase: "clue",
    round: 1,
    storyteller: "p1",
    clue: null,
    hand: ["a", "b", "c", "d", "e", "f", "g"],
    my_cards: [],
    my_vote: null,
    my_second_vote: null,
    my_void: null,
    partner_hand: null,
    table: [],
    acted: [],
    waiting_for: ["p1"],
    scores: { p1: 0, p2: 0, p3: 0 },
    pile_count: 63,
    discard_count: 0,
    end_reason: null,
    rounds: [],
    winners: [],
    legal: { give_clue: ["a", "b", "c", "d", "e", "f", "g"], submit: [], submit_count: 0, vote: [], max_clue_length: 200, vote_count: 0, void: [] },
    ...over,
  };
}

export const you = { role: "player" as const, seat: "p1", is_host: true };

export function welcome(v: GameView | null, r: RoomState = room()): ServerMessage {
  return {
    type: "welcome",
    v: 1,
    you,
    room: r,
    game: v ? { type: "game", v: 1, from_version: 0, events: [], view: v, reset: true } : null,
  };
}

export function game(v: GameView, reset = false): ServerMessage {
  return { type: "game", v: 1, from_version: v.version - 1, events: [], view: v, reset };
}
