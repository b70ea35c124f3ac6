/** The HTTP lobby API: create a room, join, spectate, list decks. */
import type { CaptionsRequest, CreateRoomRequest, DeckCards, DeckEditRequest, DeckInfo, DeckList, JoinRoomRequest, PublicTableList, RoomState, SeatTicket } from "../protocol";
import { heldFor, loadTicket, savedTickets, type Held } from "./tickets";

/** What POST /api/decks answers: the new deck's slug and the files it could not take. */
export interface ImportReport {
  name: string;
  slug: string | null;
  accepted: number;
  rejected: { filename: string; reason: string; message: string }[];
  ok: boolean;
}

export class ApiProblem extends Error {
  constructor(
    public code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The seats this browser holds, as `X-Dixit-Seats` says them (never in a URL): a deck a host
 * uploaded is listed only to its uploader and to the rooms that deal from it.
 */
function seats(tickets: readonly Held[]): Record<string, string> {
  const held = tickets.slice(0, 16).map((t) => `${t.code}:${t.token}`).join(", ");
  return held ? { "x-dixit-seats": held } : {};
}

async function call<T>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: { ...(body === undefined || body instanceof FormData ? {} : { "content-type": "application/json" }), ...extra },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiProblem("network", "network");
  }
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const err = (data ?? {}) as { code?: string; message?: string; detail?: unknown };
    throw new ApiProblem(err.code ?? `http/${res.status}`, err.message ?? res.statusText);
  }
  return data as T;
}

export const api = {
  createRoom: (req: CreateRoomRequest) => call<SeatTicket>("POST", "/api/rooms", req),
  /** Join and watch show the seats this browser held in the room: a kicked one is refused. */
  join: (code: string, req: JoinRoomRequest) =>
    call<SeatTicket>("POST", `/api/rooms/${encodeURIComponent(code)}/join`, req, seats(heldFor(code))),
  spectate: (code: string) =>
    call<SeatTicket>("POST", `/api/rooms/${encodeURIComponent(code)}/spectate`, {}, seats(heldFor(code))),
  room: (code: string) => call<RoomState>("GET", `/api/rooms/${encodeURIComponent(code)}`),
  /** The decks to deal from: the shared ones, and with `code` the uploads this seat may use. */
  decks: (code?: string) => {
    const ticket = code ? loadTicket(code) : null;
    return call<DeckList>("GET", "/api/decks", undefined, seats(ticket ? [ticket] : []));
  },
  tables: () => call<PublicTableList>("GET", "/api/tables"),
  /** A visitor reports an open table (a few reports hide it from the list). */
  report: (code: string) => call<{ reported: boolean }>("POST", `/api/tables/${encodeURIComponent(code)}/report`, {}),
  deckCards: (slug: string, lang: string) =>
    call<DeckCards>("GET", `/api/decks/${encodeURIComponent(slug)}/cards?lang=${encodeURIComponent(lang)}`, undefined, seats(savedTickets())),
  captions: (slug: string, req: CaptionsRequest) =>
    call<DeckInfo>("POST", `/api/decks/${encodeURIComponent(slug)}/captions`, req),
  importDeck: (file: File, name: string, token: string) => {
    const form = new FormData();
    form.set("file", file);
    form.set("name", name);
    form.set("token", token);
    return call<ImportReport>("POST", "/api/decks", form);
  },
  /** The uploader adds pictures (a zip or one image) to their deck. */
  addPictures: (slug: string, file: File, token: string) => {
    const form = new FormData();
    form.set("file", file);
    form.set("token", token);
    return call<ImportReport>("POST", `/api/decks/${encodeURIComponent(slug)}/cards`, form);
  },
  renameDeck: (slug: string, req: DeckEditRequest) => call<DeckInfo>("PATCH", `/api/decks/${encodeURIComponent(slug)}`, req),
  deleteDeck: (slug: string, req: DeckEditRequest) => call<{ deleted: string }>("DELETE", `/api/decks/${encodeURIComponent(slug)}`, req),
};
