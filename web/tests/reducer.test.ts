import { describe, expect, it } from "vitest";
import type { RoundResult, ServerMessage } from "../src/protocol";
import { initialState, isPending, shownView, wantedSettings, lastVersion, reduce, revealedRound, discardPile, keepRounds, roundPoints, seatName, turn, type Action, type ClientState } from "../src/state/reducer";
import { game, room, view, welcome, you } from "./fixtures";

const run = (actions: Action[], from: ClientState = initialState) => actions.reduce(reduce, from);
const server = (msg: ServerMessage): Action => ({ kind: "server", msg });

describe("reducer", () => {
  it("starts idle and empty", () => {
    expect(initialState.conn).toBe("idle");
    expect(initialState.view).toBeNull();
  });

  it("tells a player back from autoplay that the seat is theirs again", () => {
    const playing = room({ status: "playing" });
    const away = { ...playing, seats: playing.seats.map((x) => (x.id === "p1" ? { ...x, is_bot: true, autoplay: true } : x)) };
    const s = run([server(welcome(view(), away)), server(welcome(view(), playing))]);
    expect(s.notices.map((n) => [n.code, n.seat])).toEqual([["seat/reclaimed", "p1"]]);
    // A plain reconnect tells nothing.
    expect(run([server(welcome(view(), playing)), server(welcome(view(), playing))]).notices).toEqual([]);
  });

  it("takes the room and no game from a lobby welcome", () => {
    const s = run([server(welcome(null))]);
    expect(s.room?.code).toBe("KX7QMB");
    expect(s.you).toEqual(you);
    expect(s.view).toBeNull();
  });

  it("takes the view from a welcome during a game", () => {
    const s = run([server(welcome(view(), room({ status: "playing" })))]);
    expect(s.view?.version).toBe(3);
  });

  it("applies newer game views and ignores older ones", () => {
    const s = run([
      server(welcome(view(), room({ status: "playing" }))),
      server(game(view({ version: 5, phase: "submit" }))),
      server(game(view({ version: 4, phase: "clue" }))),
    ]);
    expect(s.view?.version).toBe(5);
    expect(s.view?.phase).toBe("submit");
    expect(lastVersion(s)).toBe(5);
  });

  it("takes an older view when the server says reset", () => {
    const s = run([server(welcome(view({ version: 9 }), room({ status: "playing" }))), server(game(view({ version: 2 }), true))]);
    expect(s.view?.version).toBe(2);
  });

  it("does not mutate the previous state", () => {
    const a = run([server(welcome(view(), room({ status: "playing" })))]);
    const frozen = JSON.stringify(a);
    reduce(a, { kind: "server", msg: game(view({ version: 7 })) });
    expect(JSON.stringify(a)).toBe(frozen);
  });

  it("tracks pending commands until ack or error", () => {
    let s = run([{ kind: "sent", id: "c1", command: { type: "cast_vote", id: "c1", card: "x" } }]);
    expect(isPending(s, "cast_vote")).toBe(true);
    s = reduce(s, { kind: "server", msg: { type: "ack", v: 1, id: "c1", version: 8, duplicate: false } });
    expect(isPending(s, "cast_vote")).toBe(false);
    s = run([{ kind: "sent", id: "c2", command: { type: "cast_vote", id: "c2", card: "x" } }, { kind: "server", msg: { type: "error", v: 1, id: "c2", code: "action/cannot_vote_own_card", message: "no" } }], s);
    expect(isPending(s, "cast_vote")).toBe(false);
    expect(s.error?.code).toBe("action/cannot_vote_own_card");
    expect(reduce(s, { kind: "dismiss" }).error).toBeNull();
  });

  it("builds a settings change on the one still on its way", () => {
    let s = run([server(welcome(null, room({ settings: { language: "en" } })))]);
    expect(wantedSettings(s).language).toBe("en");
    s = reduce(s, { kind: "sent", id: "c1", command: { type: "update_settings", id: "c1", settings: { language: "en", public: true, table_name: "Owls" } } });
    expect(wantedSettings(s)).toEqual({ language: "en", public: true, table_name: "Owls" });
    s = reduce(s, { kind: "server", msg: { type: "ack", v: 1, id: "c1", version: 0, duplicate: false } });
    expect(wantedSettings(s)).toEqual({ language: "en" }); // the server's word until its room update
  });

  it("clears the game view on a rematch (back to the lobby)", () => {
    const s = run([
      server(welcome(view({ phase: "over" }), room({ status: "over" }))),
      { kind: "server", msg: { type: "room", v: 1, room: room({ status: "lobby", game_number: 2 }), you } },
    ]);
    expect(s.view).toBeNull();
    expect(s.room?.game_number).toBe(2);
  });

  it("keeps the view on room updates during a game", () => {
    const s = run([
      server(welcome(view(), room({ status: "playing" }))),
      { kind: "server", msg: { type: "room", v: 1, room: room({ status: "playing" }), you } },
    ]);
    expect(s.view).not.toBeNull();
  });

  it("follows the connection and resets the attempt count when open", () => {
    let s = run([{ kind: "conn", status: "reconnecting", attempt: 3 }]);
    expect(s.conn).toBe("reconnecting");
    expect(s.attempt).toBe(3);
    s = reduce(s, { kind: "conn", status: "open" });
    expect(s.attempt).toBe(0);
  });

  it("remembers a close by the server (no reconnect) and keeps three notices", () => {
    let s = run([{ kind: "server", msg: { type: "closed", v: 1, code: "room/kicked", message: "bye" } }]);
    expect(s.closed?.code).toBe("room/kicked");
    expect(s.conn).toBe("closed");
    const codes = ["timer/auto_played", "seat/autoplayed", "seat/reclaimed", "timer/auto_played", "seat/autoplayed"] as const;
    for (let i = 0; i < 5; i++) s = reduce(s, { kind: "server", msg: { type: "notice", v: 1, code: codes[i]!, message: `m${i}`, seat: null } });
    expect(s.notices.map((n) => n.message)).toEqual(["m2", "m3", "m4"]);
  });
});

describe("selectors", () => {
  it("a game the host ended is over, with nothing playable", () => {
    const playing = run([server(welcome(view(), room({ status: "playing" })))]);
    expect(shownView(playing)?.phase).toBe("clue");
    const ended = reduce(playing, { kind: "server", msg: { type: "room", v: 1, room: room({ status: "over" }), you } });
    expect(shownView(ended)?.phase).toBe("over");
    expect(shownView(ended)?.legal.give_clue).toEqual([]);
    expect(turn(shownView(ended)).kind).toBe("over");
  });

  it("turn follows the legal actions, not rules", () => {
    expect(turn(null).kind).toBe("lobby");
    expect(turn(view()).kind).toBe("yourClue");
    expect(turn(view({ storyteller: null })).kind).toBe("claimClue");
    expect(turn(view({ storyteller: "p2", legal: { give_clue: [], submit: [], submit_count: 0, vote: [], max_clue_length: 200, vote_count: 0, void: [] } }))).toEqual({ kind: "waitClue", storyteller: "p2" });
    expect(turn(view({ phase: "submit", legal: { give_clue: [], submit: ["a"], submit_count: 2, vote: [], max_clue_length: 0, vote_count: 0, void: [] } }))).toEqual({ kind: "yourSubmit", count: 2 });
    expect(turn(view({ phase: "submit", waiting_for: ["p2", "p3"], legal: { give_clue: [], submit: [], submit_count: 0, vote: [], max_clue_length: 0, vote_count: 0, void: [] } }))).toEqual({ kind: "waitSubmit", waiting: ["p2", "p3"] });
    expect(turn(view({ phase: "vote", legal: { give_clue: [], submit: [], submit_count: 0, vote: ["x"], max_clue_length: 0, vote_count: 1, void: [] } })).kind).toBe("yourVote");
    expect(turn(view({ phase: "vote", storyteller: "p1", waiting_for: ["p3"], legal: { give_clue: [], submit: [], submit_count: 0, vote: [], max_clue_length: 0, vote_count: 0, void: [] } }))).toEqual({ kind: "waitVote", waiting: ["p3"], storyteller: true });
    expect(turn(view({ phase: "over" })).kind).toBe("over");
  });

  const result: RoundResult = {
    round: 1, storyteller: "p1", clue: "moon", storyteller_card: "a", table: ["b", "a", "c"],
    owners: [{ card: "b", player: "p2" }, { card: "a", player: "p1" }, { card: "c", player: "p3" }],
    votes: [{ player: "p2", card: "a" }, { player: "p3", card: "b" }], outcome: "some",
    awards: [{ player: "p1", points: 3, reason: "storyteller_found_by_some" }, { player: "p2", points: 3, reason: "found_storyteller" }, { player: "p2", points: 1, reason: "votes_received" }],
    void: null,
  };

  it("shows the last round's reveal while the next clue is awaited", () => {
    expect(revealedRound(view())).toBeNull();
    expect(revealedRound(view({ round: 2, rounds: [result] }))?.clue).toBe("moon");
    expect(revealedRound(view({ round: 2, phase: "submit", rounds: [result] }))?.round).toBe(1);
    expect(revealedRound(view({ round: 2, phase: "submit", rounds: [result] }), 1)).toBeNull();
    expect(revealedRound(view({ round: 2, phase: "vote", rounds: [result] }))).toBeNull();
    expect(revealedRound(view({ round: 1, phase: "over", rounds: [result] }))?.round).toBe(1);
  });

  it("keeps a player's reveal until they close it, whatever phase the game reached", () => {
    expect(revealedRound(view({ round: 2, phase: "vote", rounds: [result] }), 0)?.round).toBe(1);
    expect(revealedRound(view({ round: 2, phase: "vote", rounds: [result] }), 1)).toBeNull();
    expect(revealedRound(view({ round: 3, phase: "clue", rounds: [result] }), 0)).toBeNull();
  });

  it("finds the discard pile in the latest tables", () => {
    const second: RoundResult = { ...result, round: 2, table: ["d", "e", "f"] };
    expect(discardPile([result, second], 4)).toEqual(["d", "e", "f", "b"]);
    expect(discardPile([result, second], 0)).toEqual([]);
  });

  it("keeps every round seen, though each view after the welcome carries only the latest", () => {
    const second: RoundResult = { ...result, round: 2, clue: "sun" };
    expect(keepRounds([result], [second]).map((r) => r.round)).toEqual([1, 2]);
    expect(keepRounds([result, second], [second])).toHaveLength(2);
    expect(keepRounds([second], [result]).map((r) => r.round)).toEqual([1, 2]);
    expect(keepRounds([result], [])).toEqual([result]);
  });

  it("sums points per player with reasons", () => {
    const p = roundPoints(result);
    expect(p.get("p1")?.total).toBe(3);
    expect(p.get("p2")).toEqual({ total: 4, reasons: [{ points: 3, reason: "found_storyteller" }, { points: 1, reason: "votes_received" }] });
    expect(p.has("p3")).toBe(false);
  });

  it("names seats, falling back to the id", () => {
    expect(seatName(room(), "p2")).toBe("Bo");
    expect(seatName(room(), "p9")).toBe("p9");
    expect(seatName(null, "p2")).toBe("");
  });
});
