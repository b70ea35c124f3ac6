import { useEffect, useRef, useState } from "preact/hooks";
import { CaptionEditor, DeckUpload } from "../components/Captions";
import { chosenOrDefault, DeckPicker, undescribed } from "../components/DeckPicker";
import { LevelSelect, type BotLevel } from "../components/LevelSelect";
import { QrCode } from "../components/QrCode";
import { RabbitIcon } from "../components/Rabbit";
import { RABBIT_HEX, rabbitHex, seatHex } from "../components/colors";
import { useI18n } from "../i18n/context";
import { errorText } from "../i18n/errors";
import { api } from "../net/api";
import type { Send } from "../net/socket";
import { loadTicket } from "../net/tickets";
import { LANGUAGES, LANGUAGE_NAMES, type Lang } from "../i18n";
import type { DeckInfo } from "../protocol";
import type { ClientState } from "../state/reducer";
import { isPending, wantedSettings } from "../state/reducer";
import { RulesSummary } from "./RulesSummary";
import { Chat } from "../components/Chat";
import { ReactionsShown } from "../components/Reactions";
import { OpenTable } from "./PublicRooms";

/** Start refused for too few cards: the lobby says it with both numbers, in place of a toast. */
export const CARDS_REFUSED = "setup/deck_too_small";

export function joinUrl(code: string): string {
  return `${location.origin}/r/${code}`;
}


/** Copy the link; where the clipboard is not allowed (plain http on a LAN), select it instead. */
async function copyLink(input: HTMLInputElement | null, url: string): Promise<"copied" | "selected"> {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(url);
    return "copied";
  } catch {
    input?.focus();
    input?.select();
    return "selected";
  }
}

export function Lobby({ state, send }: { state: ClientState; send: Send }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState<"copied" | "selected" | null>(null);
  const [decks, setDecks] = useState<DeckInfo[]>([]);
  const [level, setLevel] = useState<BotLevel>("medium");
  const [describing, setDescribing] = useState<string | null>(null);
  const linkRef = useRef<HTMLInputElement>(null);
  const room = state.room!;
  const you = state.you;
  const isHost = Boolean(you?.is_host);
  const url = joinUrl(room.code);
  const s = room.settings;
  const token = isHost ? loadTicket(room.code)?.token ?? null : null;
  const chosen = chosenOrDefault(s.decks ?? [], decks);
  const hasBots = room.seats.some((x) => x.is_bot);

  const refreshDecks = () => api.decks(room.code).then((d) => setDecks(d.decks), () => undefined);
  useEffect(() => { void refreshDecks(); }, []);

  async function copy() {
    const how = await copyLink(linkRef.current, url);
    setCopied(how);
    setTimeout(() => setCopied(null), 4000);
  }
  const chooseDecks = (slugs: string[]) => send({ type: "update_settings", settings: { ...wantedSettings(state), decks: slugs } });
  const renameDeck = (slug: string, name: string) => {
    if (token) api.renameDeck(slug, { token, name }).then(() => refreshDecks(), () => undefined);
  };
  const deleteDeck = (slug: string) => {
    if (!token) return;
    api.deleteDeck(slug, { token }).then(() => {
      if (chosen.includes(slug)) chooseDecks(chosen.filter((x) => x !== slug));
      if (describing === slug) setDescribing(null);
      void refreshDecks();
    }, () => undefined);
  };
  const addBot = () => send({ type: "add_bot", level });
  const setBotLevel = (seat: string, l: BotLevel) => send({ type: "set_bot_level", player: seat, level: l });
  const setLanguage = (language: Lang) => send({ type: "update_settings", settings: { ...wantedSettings(state), language } });
  const importable = decks.filter((d) => d.kind === "imported" && chosen.includes(d.slug));
  // The room says whether computer players can read every chosen card; the deck list says how
  // many have no description.
  const blind = undescribed(chosen, decks);
  const chosenCards = decks.filter((d) => chosen.includes(d.slug)).reduce((n, d) => n + d.card_count, 0);
  const canRead = room.bots_can_read;
  const cardsRefused = state.error?.code === CARDS_REFUSED;

  return (
    <main class={`lobby${isHost ? " lobby--host" : ""}`} data-testid="lobby">
      <section class="panel lobby-share">
        <h1>{t("lobby.room")} <span class="room-code" data-testid="room-code">{room.code}</span></h1>
        <h2>{t("lobby.share")}</h2>
        <div class="share">
          <QrCode text={url} label={t("lobby.qr")} />
          <div class="share-link">
            <input ref={linkRef} readOnly value={url} aria-label={t("lobby.share")} onFocus={(e) => e.currentTarget.select()} data-testid="share-url" />
            <button type="button" class="btn" onClick={copy} data-testid="copy">{copied === "copied" ? t("lobby.copied") : t("lobby.copy")}</button>
            <p class="muted" role="status" data-testid="copy-status">{copied === "selected" ? t("lobby.selected") : t("lobby.qr")}</p>
          </div>
        </div>
      </section>
      <section class="panel lobby-seats">
        <h2>{t("lobby.players", { n: room.seats.length })}</h2>
        <ul class="seats" data-testid="seats">
          {room.seats.map((seat) => {
            const seatLevel = seat.bot_level;
            return (
              <li key={seat.id} class={`seat${seat.connected || seat.is_bot ? "" : " is-offline"}`} data-testid="seat">
                <RabbitIcon color={seatHex(room, seat.id)} size={34} />
                <span class="seat-name" data-testid="seat-name">{seat.name}</span>
                <span class="badges">
                  {seat.is_host ? <span class="badge badge--host">{t("lobby.host")}</span> : null}
                  {you?.seat === seat.id ? <span class="badge badge--you">{t("lobby.you")}</span> : null}
                  {seat.is_bot && !(isHost && seatLevel) ? <span class="badge" data-testid="bot-badge">{seatLevel ? t("bot.badge", { level: t(`bot.level.${seatLevel}`) }) : t("lobby.bot")}</span> : null}
                  {!seat.connected && !seat.is_bot ? <span class="badge badge--off">{t("lobby.offline")}</span> : null}
                </span>
                {isHost && seat.is_bot && seatLevel ? (
                  <LevelSelect value={seatLevel} onChange={(l) => setBotLevel(seat.id, l)} label={t("bot.levelOf", { name: seat.name })} testid="seat-level" />
                ) : null}
                {isHost && seat.id !== you?.seat ? (
                  <button type="button" class="btn btn-ghost btn-small" onClick={() => send({ type: "kick", seat: seat.id })} aria-label={t("lobby.removeBot", { name: seat.name })} data-testid="kick">✕</button>
                ) : null}
              </li>
            );
          })}
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
        <RulesSummary settings={s} players={room.seats.length} />
        {isHost ? (
          <label class="field field--inline room-language">
            <span>{t("lobby.language")}</span>
            <select value={s.language ?? "en"} onChange={(e) => setLanguage(e.currentTarget.value as Lang)} data-testid="room-language">
              {LANGUAGES.map((l) => <option key={l} value={l}>{LANGUAGE_NAMES[l]}</option>)}
            </select>
          </label>
        ) : null}
        {!canRead && (hasBots || isHost) ? (
          <p class="alert alert--soft" role="note" data-testid="bots-blind">
            {blind > 0 && blind < chosenCards ? t("lobby.botsBlind", { n: blind }) : t("lobby.botsBlindAll")}
          </p>
        ) : null}
        {decks.length > 0 && room.cards_needed && (chosenCards < room.cards_needed || cardsRefused) ? (
          // Said with the numbers before Start refuses it, and as the refusal itself: how many the
          // decks hold, how many the table needs (the room's toast leaves this refusal to it).
          <p class={`alert${cardsRefused ? "" : " alert--soft"}`} role={cardsRefused ? "alert" : "note"} data-testid="cards-short">{t("lobby.cardsShort", { have: chosenCards, need: room.cards_needed })}</p>
        ) : cardsRefused ? (
          <p class="alert" role="alert" data-testid="cards-short">{errorText(t, CARDS_REFUSED)}</p>
        ) : null}
        {isHost ? (
          <div class="host-actions">
            <div class="add-bot">
              <button type="button" class="btn" onClick={addBot} data-testid="add-bot">+ {t("lobby.addBot")}</button>
              <LevelSelect value={level} onChange={setLevel} label={t("bot.levelNew")} testid="add-bot-level" />
            </div>
          </div>
        ) : (
          <p class="waiting" data-testid="waiting-host">{you?.role === "spectator" ? t("turn.spectating") : t("lobby.waitingHost")}</p>
        )}
        <OpenTable state={state} send={send} />
      </section>
      {decks.length > 0 ? (
        <section class="panel lobby-decks">
          <DeckPicker decks={decks} chosen={s.decks ?? []} onChange={isHost ? chooseDecks : undefined} onRename={renameDeck} onDelete={deleteDeck} />
          {isHost && token ? (
            <details class="more" data-testid="own-pictures">
              <summary>{t("upload.title")}</summary>
              <DeckUpload token={token} mine={decks.filter((d) => d.mine)} onImported={(slug) => { void refreshDecks(); if (!chosen.includes(slug)) chooseDecks([...chosen, slug].slice(-8)); setDescribing(slug); }} />
              {importable.map((d) => (
                <button key={d.slug} type="button" class="btn btn-small" onClick={() => setDescribing(describing === d.slug ? null : d.slug)} aria-expanded={describing === d.slug ? "true" : "false"} data-testid="describe">
                  {t("captions.open", { name: d.name })}
                </button>
              ))}
              {describing ? <CaptionEditor key={`${describing} ${decks.find((d) => d.slug === describing)?.card_count ?? 0}`} slug={describing} token={token} onSaved={() => void refreshDecks()} /> : null}
            </details>
          ) : null}
        </section>
      ) : null}
      <Chat state={state} send={send} />
      <ReactionsShown state={state} />
      {isHost ? (
        // The host's Start floats at the bottom of the screen: never a long scroll away.
        <div class="actionbar lobby-start">
          <button type="button" class="btn btn-primary btn-big" onClick={() => send({ type: "start_game" })} disabled={isPending(state, "start_game")} data-testid="start">{t("lobby.start")}</button>
        </div>
      ) : null}
    </main>
  );
}
