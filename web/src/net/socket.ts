/**
 * One WebSocket to a room: says hello with the seat token and the last version seen, reconnects
 * with exponential backoff, and resends unanswered commands (their ids make a resend harmless).
 * The unanswered commands are the client state's `pending` (the reducer adds a command when it
 * is sent and drops it at its ack or error): the socket asks for them, it keeps no second copy.
 */
import type { ClientMessage, ServerMessage } from "../protocol";
import { PROTOCOL_VERSION } from "../protocol";
import type { Action } from "../state/reducer";

export function backoffDelay(attempt: number, random = Math.random): number {
  const base = Math.min(10_000, 400 * 2 ** attempt);
  return Math.round(base * (0.75 + random() * 0.5));
}

const HEARTBEAT_MS = 15_000;

let counter = 0;
export function commandId(): string {
  counter += 1;
  return `${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

type Command = Exclude<ClientMessage, { type: "hello" | "sync" | "ping" }>;
export type CommandBody = Command extends infer C
  ? C extends Command
    ? Omit<C, "id" | "v">
    : never
  : never;

/** Sends a command to the room; answers its id. */
export type Send = (body: CommandBody) => string;

export class RoomSocket {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private ping: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private lastHeard = 0;
  private onOffline = () => this.ws?.close();
  private onOnline = () => {
    if (this.stopped || this.ws) return;
    if (this.timer) clearTimeout(this.timer);
    this.open();
  };

  constructor(
    private path: string,
    private token: string,
    private dispatch: (a: Action) => void,
    private since: () => number | null,
    private unanswered: () => Iterable<ClientMessage>,
  ) {}

  start(): void {
    this.stopped = false;
    addEventListener("offline", this.onOffline);
    addEventListener("online", this.onOnline);
    this.open();
  }

  stop(): void {
    this.stopped = true;
    removeEventListener("offline", this.onOffline);
    removeEventListener("online", this.onOnline);
    if (this.timer) clearTimeout(this.timer);
    if (this.ping) clearInterval(this.ping);
    this.ws?.close();
    this.ws = null;
  }

  send(body: CommandBody): string {
    const id = commandId();
    const msg = { ...body, id, v: PROTOCOL_VERSION } as ClientMessage;
    this.dispatch({ kind: "sent", id, command: msg });
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    return id;
  }

  private url(): string {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}${this.path}`;
  }

  private open(): void {
    this.dispatch({ kind: "conn", status: this.attempt === 0 ? "connecting" : "reconnecting", attempt: this.attempt });
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      const since = this.since();
      // Every revealed round once, in the welcome, then the latest alone with each change: the
      // client keeps the history (state.rounds) for the past rounds and the 2021 discard pile,
      // and each update stays small however long the game.
      const hello: Extract<ClientMessage, { type: "hello" }> = {
        type: "hello",
        v: PROTOCOL_VERSION,
        token: this.token,
        since,
        rounds: "catch_up",
      };
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => {
      this.lastHeard = Date.now();
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(e.data)) as ServerMessage;
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        this.attempt = 0;
        this.dispatch({ kind: "conn", status: "open", attempt: 0 });
        for (const pending of this.unanswered()) ws.send(JSON.stringify(pending));
        if (this.ping) clearInterval(this.ping);
        // A heartbeat: a socket that stays silent past two pings is dead (phones lose networks
        // without a close), so drop it and reconnect.
        this.ping = setInterval(() => {
          if (Date.now() - this.lastHeard > 2 * HEARTBEAT_MS + 5_000) ws.close();
          else if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping", v: PROTOCOL_VERSION }));
        }, HEARTBEAT_MS);
      }
      if (msg.type === "closed") this.stopped = true;
      if (msg.type === "error" && msg.id === null && msg.code.startsWith("auth/")) this.stopped = true;
      this.dispatch({ kind: "server", msg });
    };
    ws.onclose = () => {
      if (this.ping) clearInterval(this.ping);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) {
        this.dispatch({ kind: "conn", status: "closed" });
        return;
      }
      this.attempt += 1;
      this.dispatch({ kind: "conn", status: "reconnecting", attempt: this.attempt });
      this.timer = setTimeout(() => this.open(), backoffDelay(this.attempt - 1));
    };
  }
}
