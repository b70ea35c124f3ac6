import { describe, expect, it } from "vitest";
import type { ChatLine } from "../src/protocol";
import { initialTalk, reduceTalk, REACTION_MS, REACTIONS, REACTION_EMOJI } from "../src/state/talk";

const line = (n: number, text = `line ${n}`): ChatLine => ({ id: `a1-${n}`, seat: "p2", name: "Bo", text, at: 1000 + n, team: false });

describe("table talk", () => {
  it("takes the history and the muted seats from a talk message", () => {
    const s = reduceTalk(initialTalk, { type: "talk", v: 1, lines: [line(1), line(2)], muted: ["p3"] });
    expect(s.lines.map((l) => l.id)).toEqual(["a1-1", "a1-2"]);
    expect(s.muted).toEqual(["p3"]);
    expect(s.received).toBe(0);
  });

  it("adds each new line once and keeps the last fifty", () => {
    let s = initialTalk;
    for (let n = 1; n <= 60; n++) s = reduceTalk(s, { type: "chat", v: 1, line: line(n) });
    s = reduceTalk(s, { type: "chat", v: 1, line: line(60) });
    expect(s.lines).toHaveLength(50);
    expect(s.lines[0]!.id).toBe("a1-11");
    expect(s.received).toBe(60);
  });

  it("shows reactions for a while, the newest last", () => {
    let s = reduceTalk(initialTalk, { type: "reaction", v: 1, seat: "p1", reaction: "laugh", at: 0 }, 0);
    s = reduceTalk(s, { type: "reaction", v: 1, seat: "p2", reaction: "clap", at: 0 }, 100);
    expect(s.reactions.map((r) => r.reaction)).toEqual(["laugh", "clap"]);
    s = reduceTalk(s, { type: "reaction", v: 1, seat: "p3", reaction: "wow", at: 0 }, REACTION_MS + 50);
    expect(s.reactions.map((r) => r.reaction)).toEqual(["clap", "wow"]);
    expect(new Set(s.reactions.map((r) => r.key)).size).toBe(2);
  });

  it("has an emoji for every reaction the server accepts", () => {
    expect(REACTIONS.map((r) => REACTION_EMOJI[r]).every(Boolean)).toBe(true);
    expect(REACTIONS).toHaveLength(8);
  });
});
