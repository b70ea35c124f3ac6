/**
 * Seat tickets per room, kept in localStorage so a reload (or a new tab) continues the game.
 * The same seats go into the `dixit_seats` cookie, sent with card pictures only (path /cards):
 * an `<img>` sends no header of ours, and a picture of an uploaded deck is served only to its
 * uploader and to the seats of the rooms that deal from it. A token the host kicked is kept
 * aside and shown when joining that room again, which the server then refuses.
 */
import type { SeatTicket } from "../protocol";

const key = (code: string) => `dixit.ticket.${code.toUpperCase()}`;
const kickedKey = (code: string) => `dixit.kicked.${code.toUpperCase()}`;
const MAX_SEATS = 16; // the server reads no more from the cookie or the header

/** A seat as shown to the server: which room, and the token. */
export type Held = Pick<SeatTicket, "code" | "token">;

/** Tickets this page holds without keeping them (a TV's spectator ticket), newest first. */
let shown: SeatTicket[] = [];

/** The `dixit_seats` cookie's value: `CODE:TOKEN.CODE:TOKEN` (no comma: cookie syntax). */
export function seatsCookie(tickets: readonly Held[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of tickets) {
    const pair = `${t.code}:${t.token}`;
    if (seen.has(pair)) continue;
    seen.add(pair);
    out.push(pair);
  }
  return out.slice(0, MAX_SEATS).join(".");
}

function writeCookie(first: Held[] = []): void {
  try {
    const value = seatsCookie([...first, ...shown, ...savedTickets()]);
    const secure = location.protocol === "https:" ? "; Secure" : "";
    document.cookie = `dixit_seats=${value}; Path=/cards; SameSite=Strict${secure}`;
  } catch {
    /* no document (tests): nothing to send pictures with */
  }
}

/** A ticket this page uses but does not keep (a TV watching): its pictures load too. */
export function showTicket(ticket: SeatTicket): void {
  shown = [ticket, ...shown.filter((t) => t.code !== ticket.code)];
  writeCookie();
}

export function loadTicket(code: string): SeatTicket | null {
  try {
    const raw = localStorage.getItem(key(code));
    return raw ? (JSON.parse(raw) as SeatTicket) : null;
  } catch {
    return null;
  }
}

export function saveTicket(ticket: SeatTicket): void {
  try {
    localStorage.setItem(key(ticket.code), JSON.stringify(ticket));
  } catch {
    /* storage full or disabled: the seat lasts this page */
    shown = [ticket, ...shown.filter((t) => t.code !== ticket.code)];
  }
  writeCookie([ticket]);
}

/** Every seat ticket this device keeps, newest room code first. */
export function savedTickets(): SeatTicket[] {
  const out: SeatTicket[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (!k?.startsWith("dixit.ticket.")) continue;
      const ticket = loadTicket(k.slice("dixit.ticket.".length));
      if (ticket?.code && ticket.token) out.push(ticket);
    }
  } catch {
    /* storage disabled: no seats kept */
  }
  return out.sort((a, b) => a.code.localeCompare(b.code));
}

/** The seat is gone for good; `kicked`: the host removed it, so its token is kept aside. */
export function forgetTicket(code: string, kicked = false): void {
  try {
    const ticket = loadTicket(code);
    if (kicked && ticket) localStorage.setItem(kickedKey(code), ticket.token);
    localStorage.removeItem(key(code));
  } catch {
    /* nothing to forget */
  }
  shown = shown.filter((t) => t.code !== code.toUpperCase());
  writeCookie();
}

/** What this browser shows when it joins or watches room `code`: its ticket there, if any, and
 * a token the host kicked from it. */
export function heldFor(code: string): Held[] {
  const held: Held[] = [];
  const ticket = loadTicket(code);
  if (ticket) held.push(ticket);
  try {
    const kicked = localStorage.getItem(kickedKey(code));
    if (kicked) held.push({ code: code.toUpperCase(), token: kicked });
  } catch {
    /* storage disabled: nothing kept */
  }
  return held;
}

writeCookie(); // the seats kept from an earlier visit

