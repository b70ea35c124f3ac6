/** The HTTP lobby API: create a room, join, spectate, list decks. */
import type { CreateRoomRequest, DeckCards, DeckList, JoinRoomRequest, PublicTableList, SeatTicket } from "../protocol";

export class ApiProblem extends Error {
  constructor(
    public code: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
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
  join: (code: string, req: JoinRoomRequest) =>
    call<SeatTicket>("POST", `/api/rooms/${encodeURIComponent(code)}/join`, req),
  spectate: (code: string) =>
    call<SeatTicket>("POST", `/api/rooms/${encodeURIComponent(code)}/spectate`, {}),
  decks: () => call<DeckList>("GET", "/api/decks"),
  tables: () => call<PublicTableList>("GET", "/api/tables"),
  deckCards: (slug: string) => call<DeckCards>("GET", `/api/decks/${encodeURIComponent(slug)}/cards`),
};
