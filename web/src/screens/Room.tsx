import { useEffect, useReducer, useRef, useState } from "preact/hooks";
import { navigate } from "../routes";
import { ConnectionPill, TopBar } from "../components/TopBar";
import { useI18n } from "../i18n/context";
import { errorText } from "../i18n/errors";
import { rememberName, rememberedName } from "../net/profile";
import { api, ApiProblem } from "../net/api";
import { RoomSocket, type Send } from "../net/socket";
import { forgetTicket, loadTicket, saveTicket, showTicket } from "../net/tickets";
import type { SeatTicket } from "../protocol";
import { initialState, lastVersion, reduce, seatName, type ClientState } from "../state/reducer";
import { Game } from "./Game";
import { CARDS_REFUSED, Lobby } from "./Lobby";
import { NotFoundBody } from "./NotFound";
import { Tv } from "./Tv";

/** What the "I'm here" panel at the table already tells the player about their own seat: one
 * message, not a toast besides. */
const TOLD_AT_THE_TABLE = new Set(["timer/auto_played", "seat/autoplayed"]);

/** The latest notice (e.g. the timer played for someone), shown for a few seconds, at the
 * bottom of the screen (never over the banner). */
function NoticeToast({ state }: { state: ClientState }) {
  const { t } = useI18n();
  const notice = state.notices[state.notices.length - 1];
  const [hidden, setHidden] = useState<unknown>(null);
  useEffect(() => {
    if (!notice) return undefined;
    const id = setTimeout(() => setHidden(notice), 6000);
    return () => clearTimeout(id);
  }, [notice]);
  if (!notice || hidden === notice) return null;
  const self = notice.seat !== null && notice.seat === state.you?.seat;
  if (self && TOLD_AT_THE_TABLE.has(notice.code) && state.room?.status === "playing") return null;
  const text = t(self ? `notice.you.${notice.code}` : `notice.${notice.code}`, { name: seatName(state.room, notice.seat) });
  return <div class="notice" role="status" data-testid="notice">{text.startsWith("⟦") ? notice.message : text}</div>;
}

function JoinForm({ code, onTicket }: { code: string; onTicket: (t: SeatTicket) => void }) {
  const { t } = useI18n();
  const [name, setName] = useState(rememberedName());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState(false);
  // Say at once when the link names no room, before anyone types a name.
  useEffect(() => {
    api.room(code).catch((e) => { if (e instanceof ApiProblem && e.code === "room/not_found") setMissing(true); });
  }, [code]);
  if (missing) return <NotFoundBody code={code} />;
  async function join(e: Event) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError(t("home.nameRequired"));
    setBusy(true);
    rememberName(trimmed);
    try {
      const ticket = await api.join(code, { name: trimmed });
      saveTicket(ticket);
      onTicket(ticket);
    } catch (err) {
      setError(errorText(t, err instanceof ApiProblem ? err.code : "network"));
    } finally {
      setBusy(false);
    }
  }
  return (
    <main class="joinpage">
      <form class="panel" onSubmit={join}>
        <h1>{t("lobby.title", { code })}</h1>
        {error ? <p class="alert" role="alert" data-testid="error">{error}</p> : null}
        <label class="field">
          <span>{t("home.name")}</span>
          <input value={name} maxLength={32} autoComplete="nickname" placeholder={t("home.namePlaceholder")} onInput={(e) => setName(e.currentTarget.value)} data-testid="name" />
        </label>
        <button class="btn btn-primary btn-big" type="submit" disabled={busy} data-testid="join">{t("lobby.joinAs")}</button>
        <a class="btn btn-ghost" href={`/r/${code}/tv`} onClick={(e) => { e.preventDefault(); navigate(`/r/${code}/tv`); }}>{t("lobby.spectate")}</a>
      </form>
    </main>
  );
}

export function Room({ code, tv }: { code: string; tv: boolean }) {
  const { t } = useI18n();
  const [ticket, setTicket] = useState<SeatTicket | null>(() => (tv ? null : loadTicket(code)));
  const [state, dispatch] = useReducer(reduce, initialState);
  const stateRef = useRef<ClientState>(state);
  stateRef.current = state;
  const socket = useRef<RoomSocket | null>(null);
  const [tvError, setTvError] = useState<string | null>(null);

  useEffect(() => {
    if (!tv) return;
    api.spectate(code).then(setTicket).catch((e) => setTvError(errorText(t, e instanceof ApiProblem ? e.code : "network")));
  }, [code, tv]);

  useEffect(() => {
    if (!ticket) return undefined;
    showTicket(ticket); // first in the cookie its pictures are fetched with (a TV keeps none)
    const s = new RoomSocket(ticket.ws, ticket.token, dispatch, () => lastVersion(stateRef.current), () => Object.values(stateRef.current.pending));
    socket.current = s;
    s.start();
    return () => s.stop();
  }, [ticket]);

  // The seat is gone for good (kicked, left, unknown token): forget its ticket. A seat opened on
  // another device ("auth/replaced") keeps its ticket: this device can take it back.
  useEffect(() => {
    const why = state.closed?.code ?? (state.error?.code.startsWith("auth/") ? state.error.code : null);
    if (why && why !== "auth/replaced" && !tv) forgetTicket(code, why === "room/kicked");
  }, [state.closed, state.error]);

  const send: Send = (body) => socket.current?.send(body) ?? "";
  const pill = <ConnectionPill status={state.conn} attempt={state.attempt} />;

  if (!ticket) {
    return (
      <div class="page">
        <TopBar />
        {tv ? <main class="joinpage"><p class={tvError ? "alert" : "muted"}>{tvError ?? t("conn.connecting")}</p></main> : <JoinForm code={code} onTicket={setTicket} />}
      </div>
    );
  }

  const lost = state.closed ?? (state.error?.code.startsWith("auth/") ? state.error : null);
  if (lost) {
    return (
      <div class="page">
        <TopBar>{pill}</TopBar>
        <main class="joinpage">
          <p class="alert" role="alert">{errorText(t, lost.code)}</p>
          {lost.code === "auth/replaced" ? (
            <button class="btn btn-primary" onClick={() => location.reload()}>{t("lobby.takeBack")}</button>
          ) : (
            <button class="btn btn-primary" onClick={() => { forgetTicket(code); location.reload(); }}>{t("lobby.joinAs")}</button>
          )}
        </main>
      </div>
    );
  }

  const room = state.room;
  const spectator = tv || state.you?.role === "spectator";
  let body: preact.ComponentChildren;
  if (!room) body = <main class="joinpage"><p class="muted">{t("conn.connecting")}</p></main>;
  else if (spectator && state.view) body = <Tv state={state} />;
  else if (room.status === "lobby" || !state.view) body = <Lobby state={state} send={send} />;
  else body = <Game state={state} send={send} />;

  return (
    <div class={`page${spectator ? " page--tv" : ""}`}>
      <TopBar>{pill}</TopBar>
      {state.error && !lost && !(room?.status === "lobby" && state.error.code === CARDS_REFUSED) ? (
        <div class="toast" role="alert" data-testid="error">
          <span>{errorText(t, state.error.code)}</span>
          <button class="btn btn-ghost btn-small" onClick={() => dispatch({ kind: "dismiss" })}>{t("common.dismiss")}</button>
        </div>
      ) : null}
      <NoticeToast state={state} />
      {body}
    </div>
  );
}
