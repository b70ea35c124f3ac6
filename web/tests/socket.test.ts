import { describe, expect, it } from "vitest";
import { backoffDelay, commandId } from "../src/net/socket";

describe("reconnect backoff", () => {
  it("grows exponentially and is capped", () => {
    const mid = () => 0.5;
    expect(backoffDelay(0, mid)).toBe(400);
    expect(backoffDelay(1, mid)).toBe(800);
    expect(backoffDelay(3, mid)).toBe(3200);
    expect(backoffDelay(20, mid)).toBe(10000);
  });
  it("jitters within ±25%", () => {
    expect(backoffDelay(2, () => 0)).toBe(1200);
    expect(backoffDelay(2, () => 1)).toBe(2000);
  });
  it("makes unique command ids", () => {
    const ids = new Set(Array.from({ length: 100 }, commandId));
    expect(ids.size).toBe(100);
  });
});
