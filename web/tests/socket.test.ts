import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backoffDelay, commandId, RoomSocket } from "../src/net/socket";
import type { ServerMessage } from "../src/protocol";
import { initialState, reduce, type Action, type ClientState } from "../src/state/reducer";
import { welcome } from "./fixtures";

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

/** A stand-in for the browser's WebSocket: records what is sent, opens and answers on demand. */
class FakeSocket {
  static OPEN = 1;
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: { type: string; id?: string }[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text) as { type: string; id?: string });
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  hear(msg: ServerMessage) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

describe("room socket's unanswered commands", () => {
  beforeEach(() => {
    FakeSocket.made = [];
    vi.useFakeTimers();
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("location", { protocol: "http:", host: "127.0.0.1:8000" });
    vi.stubGlobal("addEventListener", () => undefined);
    vi.stubGlobal("removeEventListener", () => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("are the state's pending ones: resent after each welcome until answered, then never", () => {
    let state: ClientState = initialState;
    const dispatch = (a: Action) => (state = reduce(state, a));
    const s = new RoomSocket("/ws/KX7QMB", "tok", dispatch, () => null, () => Object.values(state.pending));
    s.start();
    const first = FakeSocket.made[0]!;
    const id = s.send({ type: "cast_vote", card: "c3" }); // not open yet: waits
    expect(first.sent).toEqual([]);
    expect(Object.keys(state.pending)).toEqual([id]);
    first.open();
    first.hear(welcome(null));
    expect(first.sent.map((m) => m.type)).toEqual(["hello", "cast_vote"]);
    first.close(); // lost before the answer: the next socket sends it again
    vi.runOnlyPendingTimers();
    const second = FakeSocket.made[1]!;
    second.open();
    second.hear(welcome(null));
    expect(second.sent.map((m) => [m.type, m.id])).toEqual([["hello", undefined], ["cast_vote", id]]);
    second.hear({ type: "ack", v: 1, id, version: 4, duplicate: false });
    expect(state.pending).toEqual({});
    second.close();
    vi.runOnlyPendingTimers();
    const third = FakeSocket.made[2]!;
    third.open();
    third.hear(welcome(null));
    expect(third.sent.map((m) => m.type)).toEqual(["hello"]);
    s.stop();
  });
});
