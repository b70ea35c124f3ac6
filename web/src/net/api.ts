/** The HTTP lobby API: create a room, join, spectate, list decks. */
import type { CaptionsRequest, CreateRoomRequest, DeckCards, DeckInfo, DeckList, JoinRoomRequest, PublicTableList, RoomState, SeatTicket } from "../protocol";

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

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined || body instanceof FormData ? {} : { "content-type": "application/json" },
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
  join: (code: string, req: JoinRoomRequest) =>
    call<SeatTicket>("POST", `/api/rooms/${encodeURIComponent(code)}/join`, req),
  spectate: (code: string) =>
    call<SeatTicket>("POST", `/api/rooms/${encodeURIComponent(code)}/spectate`, {}),
  room: (code: string) => call<RoomState>("GET", `/api/rooms/${encodeURIComponent(code)}`),
  decks: () => call<DeckList>("GET", "/api/decks"),
  tables: () => call<PublicTableList>("GET", "/api/tables"),
  deckCards: (slug: string, lang: string) =>
    call<DeckCards>("GET", `/api/decks/${encodeURIComponent(slug)}/cards?lang=${encodeURIComponent(lang)}`),
  captions: (slug: string, req: CaptionsRequest) =>
    call<DeckInfo>("POST", `/api/decks/${encodeURIComponent(slug)}/captions`, req),
  importDeck: (file: File, name: string, token: string) => {
    const form = new FormData();
    form.set("file", file);
    form.set("name", name);
    form.set("token", token);
    return call<ImportReport>("POST", "/api/decks", form);
  },
};
