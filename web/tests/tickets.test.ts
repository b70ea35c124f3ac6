import { describe, expect, it } from "vitest";
import { seatsCookie } from "../src/net/tickets";

describe("seatsCookie", () => {
  it("lists seats as CODE:TOKEN joined by dots, each once, at most 16", () => {
    const a = { code: "BCDFGH", token: "tok-a_1" };
    const b = { code: "JKMNPQ", token: "tok-b" };
    expect(seatsCookie([a, b, a])).toBe("BCDFGH:tok-a_1.JKMNPQ:tok-b");
    expect(seatsCookie([])).toBe("");
    const many = Array.from({ length: 20 }, (_, i) => ({ code: `C${i}`, token: `t${i}` }));
    const value = seatsCookie(many);
    expect(value.split(".")).toHaveLength(16);
    expect(value.startsWith("C0:t0.C1:t1")).toBe(true);
    // Only characters a cookie value may hold (RFC 6265 cookie-octet): no comma, space or ;.
    expect(/^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/.test(value)).toBe(true);
  });
});
