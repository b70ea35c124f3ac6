/** Seat tickets per room, kept in localStorage so a reload (or a new tab) continues the game. */
import type { SeatTicket } from "../protocol";

const key = (code: string) => `dixit.ticket.${code.toUpperCase()}`;

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
  }
}

export function forgetTicket(code: string): void {
  try {
    localStorage.removeItem(key(code));
  } catch {
    /* nothing to forget */
  }
}
