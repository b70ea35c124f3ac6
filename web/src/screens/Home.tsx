import { useEffect, useState } from "preact/hooks";
import { navigate } from "../routes";
import { DeckPicker } from "../components/DeckPicker";
import { RabbitIcon } from "../components/Rabbit";
import { TopBar } from "../components/TopBar";
import { useI18n } from "../i18n/context";
import { errorText } from "../i18n/errors";
import { rememberName, rememberedName } from "../net/profile";
import { api, ApiProblem } from "../net/api";
import { savedTickets, saveTicket } from "../net/tickets";
import type { DeckInfo, RoomSettings } from "../protocol";
import { PublicRooms } from "./PublicRooms";

function num(v: string): number | null {
  const n = parseInt(v, 10);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Seats this device holds in rooms still open: "back to your game". */
function ReturnToGames() {
  const { t } = useI18n();
  type Open = { code: string; status: string };
  const [open, setOpen] = useState<Open[]>([]);
  useEffect(() => {
    let live = true;
    Promise.all(
      savedTickets().map((ticket) =>
        api.room(ticket.code).then((room): Open | null => (room.status === "over" ? null : { code: room.code, status: room.status }), () => null),
      ),
    ).then((rooms) => { if (live) setOpen(rooms.filter((r): r is Open => r !== null)); });
    return () => { live = false; };
  }, []);
  if (open.length === 0) return null;
  return (
    <nav class="panel return" aria-label={t("home.return")} data-testid="return">
      {open.map((r) => (
        <a key={r.code} class="btn btn-primary" href={`/r/${r.code}`} onClick={(e) => { e.preventDefault(); navigate(`/r/${r.code}`); }} data-testid="return-room">
          {t(r.status === "lobby" ? "home.returnLobby" : "home.returnGame", { code: r.code })}
        </a>
      ))}
    </nav>
  );
}

type Edition = "classic" | "2021" | "odyssey";
type Mode = "standard" | "party" | "teams";
const EDITION_SEATS: Record<Edition, number> = { classic: 6, "2021": 8, odyssey: 12 };

/** Computer players a new room may hold: the edition's seats less the creator's. */
export function maxBots(edition: Edition, maxPlayers: number | null): number {
  return (maxPlayers ?? EDITION_SEATS[edition]) - 1;
}

export function Home() {
  const { t, lang } = useI18n();
  const [name, setName] = useState(rememberedName());
  const [code, setCode] = useState("");
  const [edition, setEdition] = useState<Edition>("classic");
  const [mode, setMode] = useState<Mode>("standard");
  const [lone, setLone] = useState<"default" | "on" | "off">("default");
  const [endAt, setEndAt] = useState("");
  const [maxRounds, setMaxRounds] = useState("");
  const [maxPlayers, setMaxPlayers] = useState("");
  const [timerClue, setTimerClue] = useState("");
  const [timerSubmit, setTimerSubmit] = useState("");
  const [timerVote, setTimerVote] = useState("");
  const [timerBank, setTimerBank] = useState("");
  const [bots, setBots] = useState(0);
  const [first, setFirst] = useState<"claim" | "random" | "host">("claim");
  const [clueMax, setClueMax] = useState("");
  const [decks, setDecks] = useState<DeckInfo[]>([]);
  const [chosenDecks, setChosenDecks] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => { api.decks().then((d) => setDecks(d.decks)).catch(() => setDecks([])); }, []);

  const botCap = maxBots(edition, num(maxPlayers));
  useEffect(() => { if (bots > botCap) setBots(botCap); }, [botCap]);

  const settings = (): RoomSettings => ({
    edition,
    // The party and team modes are offered with the Odyssey edition, made for big tables.
    mode: edition === "odyssey" ? mode : "standard",
    lone_finder_bonus: lone === "default" ? null : lone === "on",
    end_at_score: num(endAt),
    max_rounds: num(maxRounds),
    max_players: num(maxPlayers),
    timers: { clue: num(timerClue), submit: num(timerSubmit), vote: num(timerVote), bank: num(timerBank) },
    decks: chosenDecks,
    bots: Math.min(bots, botCap),
    first_storyteller: first,
    clue_max_length: num(clueMax),
    // Computer players tell their clues in the language of whoever opens the room.
    language: lang,
  });

  /** Play now: a seat at an open table (one in this language first), or else a new room with
   * computer players, whose Start is then one tap away. */
  async function playNow() {
    const trimmed = name.trim();
    if (!trimmed) return setError(t("home.nameRequired"));
    setBusy(true);
    setError(null);
    rememberName(trimmed);
    try {
      const open = (await api.tables()).tables.filter((tb) => tb.seats_free > 0);
      const table = open.find((tb) => tb.language === lang) ?? open[0];
      const ticket = table
        ? await api.join(table.code, { name: trimmed })
        : await api.createRoom({ name: trimmed, settings: { ...settings(), bots: Math.min(Math.max(bots, 3), botCap) } });
      saveTicket(ticket);
      navigate(`/r/${ticket.code}`);
    } catch (e) {
      setError(errorText(t, e instanceof ApiProblem ? e.code : "network"));
    } finally {
      setBusy(false);
    }
  }

  async function go(action: "create" | "join") {
    const trimmed = name.trim();
    if (!trimmed) return setError(t("home.nameRequired"));
    if (action === "join" && !code.trim()) return setError(t("home.codeRequired"));
    setBusy(true);
    setError(null);
    rememberName(trimmed);
    try {
      const ticket = action === "create"
        ? await api.createRoom({ name: trimmed, settings: settings() })
        : await api.join(code.trim().toUpperCase(), { name: trimmed });
      saveTicket(ticket);
      navigate(`/r/${ticket.code}`);
    } catch (e) {
      setError(errorText(t, e instanceof ApiProblem ? e.code : "network"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="page page--home">
      <TopBar />
      <main class="home">
        <section class="hero">
          <div class="hero-fan" aria-hidden="true">
            <span class="card-back" />
            <span class="card-back" />
            <span class="card-back" />
            <RabbitIcon color="#e04b3f" size={46} />
          </div>
          <h1>{t("app.title")}</h1>
          <p>{t("app.tagline")}</p>
        </section>
        <ReturnToGames />
        {error ? <p class="alert" role="alert" data-testid="error">{error}</p> : null}
        <label class="field">
          <span>{t("home.name")}</span>
          <input name="name" value={name} maxLength={32} autoComplete="nickname" placeholder={t("home.namePlaceholder")} onInput={(e) => setName(e.currentTarget.value)} data-testid="name" />
        </label>
        <div class="play-now">
          <button type="button" class="btn btn-primary btn-big" disabled={busy} onClick={() => void playNow()} aria-describedby="play-now-hint" data-testid="play-now">{t("home.playNow")}</button>
          <p class="hint" id="play-now-hint">{t("home.playNowHint")}</p>
        </div>
        <PublicRooms name={name} />
        <div class="home-cols">
          <form class="panel" onSubmit={(e) => { e.preventDefault(); void go("join"); }}>
            <h2>{t("home.join")}</h2>
            <label class="field">
              <span>{t("home.code")}</span>
              <input name="code" value={code} maxLength={12} autoCapitalize="characters" placeholder={t("home.codePlaceholder")} onInput={(e) => setCode(e.currentTarget.value.toUpperCase())} class="code-input" data-testid="code" />
            </label>
            <button type="submit" class="btn btn-primary" disabled={busy} data-testid="join">{t("home.joinButton")}</button>
          </form>
          <form class="panel" onSubmit={(e) => { e.preventDefault(); void go("create"); }}>
            <h2>{t("home.create")}</h2>
            <fieldset class="editions">
              <legend>{t("rules.edition")}</legend>
              {(["classic", "2021", "odyssey"] as const).map((ed) => (
                <label key={ed} class={`choice${edition === ed ? " is-on" : ""}`}>
                  <input type="radio" name="edition" value={ed} checked={edition === ed} onChange={() => setEdition(ed)} />
                  <span>{t(`rules.edition.${ed}`)}</span>
                </label>
              ))}
            </fieldset>
            {edition === "odyssey" ? (
              <fieldset class="editions modes" data-testid="modes">
                <legend>{t("rules.mode")}</legend>
                {(["standard", "party", "teams"] as const).map((m) => (
                  <label key={m} class={`choice${mode === m ? " is-on" : ""}`}>
                    <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} aria-describedby="mode-about" data-testid={`mode-${m}`} />
                    <span>{t(`rules.mode.${m}`)}</span>
                  </label>
                ))}
                <p class="hint" id="mode-about" data-testid="mode-about">{t(`rules.mode.${mode}.about`)}</p>
              </fieldset>
            ) : null}
            <label class="field field--inline">
              <span>{t("rules.bots")}</span>
              <input type="number" min={0} max={botCap} value={bots} onInput={(e) => setBots(Math.max(0, Math.min(botCap, parseInt(e.currentTarget.value, 10) || 0)))} aria-describedby="bots-limit" data-testid="bots" />
            </label>
            <p class="hint" id="bots-limit" data-testid="bots-limit">{t("home.botsLimit", { n: botCap })}</p>
            {decks.length > 0 ? <DeckPicker decks={decks} chosen={chosenDecks} onChange={setChosenDecks} /> : null}
            <details class="more">
              <summary>{t("rules.more")}</summary>
              <label class="field field--inline">
                <span>{t("rules.firstStoryteller")}</span>
                <select value={first} onChange={(e) => setFirst(e.currentTarget.value as typeof first)}>
                  <option value="claim">{t("rules.first.claim")}</option>
                  <option value="random">{t("rules.first.random")}</option>
                  <option value="host">{t("rules.first.host")}</option>
                </select>
              </label>
              <label class="field field--inline">
                <span>{t("rules.loneFinder")}</span>
                <select value={lone} onChange={(e) => setLone(e.currentTarget.value as typeof lone)}>
                  <option value="default">{t("rules.loneFinder.default")}</option>
                  <option value="on">{t("rules.loneFinder.on")}</option>
                  <option value="off">{t("rules.loneFinder.off")}</option>
                </select>
              </label>
              <label class="field field--inline">
                <span>{t("rules.endAtScore")}</span>
                <input type="number" min={1} max={1000} value={endAt} placeholder={t("rules.default")} onInput={(e) => setEndAt(e.currentTarget.value)} />
              </label>
              <label class="field field--inline">
                <span>{t("rules.maxRounds")}</span>
                <input type="number" min={1} max={1000} value={maxRounds} placeholder={t("rules.none")} onInput={(e) => setMaxRounds(e.currentTarget.value)} data-testid="max-rounds" />
              </label>
              <label class="field field--inline">
                <span>{t("rules.maxPlayers")}</span>
                <input type="number" min={3} max={EDITION_SEATS[edition]} value={maxPlayers} placeholder={t("rules.default")} onInput={(e) => setMaxPlayers(e.currentTarget.value)} />
              </label>
              <label class="field field--inline">
                <span>{t("rules.clueMax")}</span>
                <input type="number" min={1} max={2000} value={clueMax} placeholder="200" onInput={(e) => setClueMax(e.currentTarget.value)} />
              </label>
              <fieldset class="timers">
                <legend>{t("rules.timers")}</legend>
                <label class="field field--inline"><span>{t("rules.timer.clue")}</span><input type="number" min={5} max={3600} value={timerClue} placeholder={t("rules.off")} onInput={(e) => setTimerClue(e.currentTarget.value)} data-testid="timer-clue" /></label>
                <label class="field field--inline"><span>{t("rules.timer.submit")}</span><input type="number" min={5} max={3600} value={timerSubmit} placeholder={t("rules.off")} onInput={(e) => setTimerSubmit(e.currentTarget.value)} /></label>
                <label class="field field--inline"><span>{t("rules.timer.vote")}</span><input type="number" min={5} max={3600} value={timerVote} placeholder={t("rules.off")} onInput={(e) => setTimerVote(e.currentTarget.value)} /></label>
                <label class="field field--inline"><span>{t("rules.timer.bank")}</span><input type="number" min={5} max={3600} value={timerBank} placeholder={t("rules.off")} onInput={(e) => setTimerBank(e.currentTarget.value)} data-testid="timer-bank" /></label>
              </fieldset>
            </details>
            <button type="submit" class="btn btn-primary btn-big" disabled={busy} data-testid="create">{t("home.createButton")}</button>
          </form>
        </div>
      </main>
    </div>
  );
}
