import { describe, expect, it } from "vitest";
import { EXTRA_HEX, RABBIT_HEX, seatColours } from "../src/components/colors";
import { partnerOf, tableTagKey } from "../src/screens/Game";
import { maxBots } from "../src/screens/Home";
import { voteTokens } from "../src/screens/Reveal";

/** The server's colours at a full Odyssey table: the eight in order, then the first again
 * (src/dixit/server/lobby.py gives RABBIT_COLOURS[0] once all are taken). */
const NAMES = Object.keys(RABBIT_HEX);
const twelve = Array.from({ length: 12 }, (_, i) => ({ id: `p${i + 1}`, colour: NAMES[i] ?? "red" }));

describe("twelve rabbits", () => {
  it("paints twelve seats in twelve colours, the first eight as they chose", () => {
    const hex = seatColours(twelve);
    expect(new Set(hex.values()).size).toBe(12);
    expect(hex.get("p1")).toBe(RABBIT_HEX.red);
    expect(hex.get("p8")).toBe(RABBIT_HEX.white);
    expect([9, 10, 11, 12].map((n) => hex.get(`p${n}`))).toEqual([...EXTRA_HEX]);
  });

  it("gives a repeated colour to the later seat only, the same on every client", () => {
    const seats = [{ id: "a", colour: "blue" }, { id: "b", colour: "blue" }, { id: "c", colour: "red" }];
    const hex = seatColours(seats);
    expect(hex.get("a")).toBe(RABBIT_HEX.blue);
    expect(hex.get("b")).toBe(EXTRA_HEX[0]);
    expect(hex.get("c")).toBe(RABBIT_HEX.red);
  });

  it("lets an Odyssey room hold eleven computer players", () => {
    expect(maxBots("odyssey", null)).toBe(11);
    expect(maxBots("odyssey", 8)).toBe(7);
  });
});

describe("two votes at the reveal", () => {
  it("numbers each voter's votes, first vote first", () => {
    const votes = [{ player: "a" }, { player: "a" }, { player: "b" }, { player: "c" }, { player: "c" }];
    expect(voteTokens(votes)).toEqual([1, 2, 1, 1, 2]);
  });
});

describe("team play", () => {
  const players = ["p1", "p2", "p3", "p4", "p5", "p6"];
  it("finds the partner in the viewer's pair of seats", () => {
    const rules = { team_size: 2 };
    expect(partnerOf({ players, viewer: "p1", rules })).toBe("p2");
    expect(partnerOf({ players, viewer: "p4", rules })).toBe("p3");
    expect(partnerOf({ players, viewer: "p6", rules })).toBe("p5");
  });
  it("has no partner outside team play or for a spectator", () => {
    expect(partnerOf({ players, viewer: "p1", rules: { team_size: 1 } })).toBeNull();
    expect(partnerOf({ players, viewer: null, rules: { team_size: 2 } })).toBeNull();
  });
});

describe("the table's tags in the vote", () => {
  const none = { my_void: null, my_vote: null, my_second_vote: null, my_cards: ["mine"] };
  it("says 1st and 2nd on the pictures being chosen, in the order chosen", () => {
    expect(tableTagKey("b", none, ["b", "a"], true)).toBe("game.firstVote");
    expect(tableTagKey("a", none, ["b", "a"], true)).toBe("game.secondVote");
    expect(tableTagKey("c", none, ["b", "a"], true)).toBeNull();
    expect(tableTagKey("mine", none, [], true)).toBe("game.yourCard");
  });
  it("says nothing of order with one vote", () => {
    expect(tableTagKey("b", none, ["b"], false)).toBeNull();
  });
  it("marks both votes once sent, and the voided picture", () => {
    const sent = { ...none, my_vote: "a", my_second_vote: "b" };
    expect(tableTagKey("a", sent, [], false)).toBe("game.yourFirstVote");
    expect(tableTagKey("b", sent, [], false)).toBe("game.yourSecondVote");
    expect(tableTagKey("a", { ...none, my_vote: "a" }, [], false)).toBe("game.yourVote");
    expect(tableTagKey("v", { ...none, my_void: "v" }, [], false)).toBe("game.voided");
  });
});
