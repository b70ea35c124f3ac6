import { useState } from "preact/hooks";
import { QrCode } from "../components/QrCode";
import { RabbitIcon } from "../components/Rabbit";
import { RABBIT_HEX, rabbitHex } from "../components/colors";
import { useI18n } from "../i18n/context";
import type { ClientState } from "../state/reducer";
import { isPending } from "../state/reducer";
import type { Send } from "./Room";
import { Chat } from "../components/Chat";
import { ReactionsShown } from "../components/Reactions";
import { OpenTable } from "./PublicRooms";

export function joinUrl(code: string): string {
  return `${location.origin}/r/${code}`;
}

export function Lobby({ state, send }: { state: ClientState; send: Send }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const room = state.room!;
  const you = state.you;
  const isHost = Boolean(you?.is_host);
  const url = joinUrl(room.code);
  const s = room.settings;

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      /* no clipboard: the link is shown and selectable */
    }
  }

  return (
    <main class="lobby" data-testid="lobby">
      <section class="panel lobby-share">
        <h1>{t("lobby.room")} <span class="room-code" data-testid="room-code">{room.code}</span></h1>
        <h2>{t("lobby.share")}</h2>
        <div class="share">
          <QrCode text={url} label={t("lobby.qr")} />
          <div class="share-link">
            <input readOnly value={url} aria-label={t("lobby.share")} onFocus={(e) => e.currentTarget.select()} data-testid="share-url" />
            <button type="button" class="btn" onClick={copy}>{copied ? t("lobby.copied") : t("lobby.copy")}</button>
            <p class="muted">{t("lobby.qr")}</p>
          </div>
        </div>
      </section>
      <section class="panel lobby-seats">
        <h2>{t("lobby.players", { n: room.seats.length })}</h2>
        <ul class="seats" data-testid="seats">
          {room.seats.map((seat) => (
            <li key={seat.id} class={`seat${seat.connected || seat.is_bot ? "" : " is-offline"}`} data-testid="seat">
              <RabbitIcon color={rabbitHex(seat.colour)} size={34} />
              <span class="seat-name" data-testid="seat-name">{seat.name}</span>
              <span class="badges">
                {seat.is_host ? <span class="badge badge--host">{t("lobby.host")}</span> : null}
                {you?.seat === seat.id ? <span class="badge badge--you">{t("lobby.you")}</span> : null}
                {seat.is_bot ? <span class="badge">{t("lobby.bot")}</span> : null}
                {!seat.connected && !seat.is_bot ? <span class="badge badge--off">{t("lobby.offline")}</span> : null}
              </span>
              {isHost && seat.id !== you?.seat ? (
                <button type="button" class="btn btn-ghost btn-small" onClick={() => send({ type: "kick", seat: seat.id })} aria-label={t("lobby.removeBot", { name: seat.name })} data-testid="kick">✕</button>
              ) : null}
            </li>
          ))}
        </ul>
        {you?.seat ? (
          <fieldset class="colours" data-testid="colours">
            <legend>{t("lobby.colour")}</legend>
            {Object.keys(RABBIT_HEX).map((c) => {
              const mine = room.seats.find((x) => x.id === you.seat)?.colour === c;
              const taken = room.seats.some((x) => x.colour === c && x.id !== you.seat);
              return (
                <button key={c} type="button" class={`swatch${mine ? " is-on" : ""}`} disabled={taken} aria-pressed={mine ? "true" : "false"} aria-label={t(`colour.${c}`)} title={t(`colour.${c}`)} onClick={() => send({ type: "set_profile", colour: c as "red" })}>
                  <RabbitIcon color={rabbitHex(c)} size={28} />
                </button>
              );
            })}
          </fieldset>
        ) : null}
        <p class="settings-line">
          <span>{t(`rules.edition.${s.edition ?? "classic"}`)}</span>
          {s.max_rounds ? <span> · {t("rules.maxRounds")}: {s.max_rounds}</span> : null}
          {s.end_at_score ? <span> · {t("rules.endAtScore")}: {s.end_at_score}</span> : null}
        </p>
        {isHost ? (
          <div class="host-actions">
            <button type="button" class="btn" onClick={() => send({ type: "add_bot" })} data-testid="add-bot">+ {t("lobby.addBot")}</button>
            <button type="button" class="btn btn-primary btn-big" onClick={() => send({ type: "start_game" })} disabled={isPending(state, "start_game")} data-testid="start">{t("lobby.start")}</button>
          </div>
        ) : (
          <p class="waiting" data-testid="waiting-host">{you?.role === "spectator" ? t("turn.spectating") : t("lobby.waitingHost")}</p>
        )}
        <OpenTable state={state} send={send} />
      </section>
      <Chat state={state} send={send} />
      <ReactionsShown state={state} />
    </main>
  );
}
