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

export function forgetTicket(code: string): void {
  try {
    localStorage.removeItem(key(code));
  } catch {
    /* nothing to forget */
  }
}
