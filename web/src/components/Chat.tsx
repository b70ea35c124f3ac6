import { useEffect, useRef, useState } from "preact/hooks";
import { useI18n } from "../i18n/context";
import type { Send } from "../net/socket";
import { seatName, shownView, type ClientState } from "../state/reducer";
import { MAX_CHAT_LENGTH } from "../state/talk";
import { seatHex } from "./colors";
import { RabbitIcon } from "./Rabbit";
import { ReactionButtons, useTalkHidden } from "./Reactions";

/**
 * The table's chat: recent lines (plain text), a line to type, the quick reactions, the host's
 * mutes, and a switch to hide it all for this player. `tv`: read-only, the last few lines.
 */
export function Chat({ state, send, tv: tvAsked = false }: { state: ClientState; send?: Send; tv?: boolean }) {
  const { t } = useI18n();
  const tv = tvAsked || state.you?.role === "spectator"; // a spectator's screen is the TV
  const [hidden, setHidden] = useTalkHidden();
  const [text, setText] = useState("");
  // Team play, during the game: a line may go to the speaker's team only.
  const gameView = shownView(state);
  const teamTalk = state.room?.status === "playing" && gameView?.rules.mode === "teams" && gameView.phase !== "over";
  const [toTeam, setToTeam] = useState(false);
  const log = useRef<HTMLDivElement>(null);
  const talk = state.talk;
  const room = state.room;
  const me = state.you?.seat ?? null;
  const muted = me !== null && talk.muted.includes(me);
  const canTalk = Boolean(send) && me !== null && !tv;
  const lines = tv ? talk.lines.slice(-4) : talk.lines;
  const toggled = useRef(false);
  const lastSaid = useRef<{ id: string; text: string } | null>(null);

  // A line the server refused (too fast, too long, a card id) comes back to the input to edit.
  useEffect(() => {
    const said = lastSaid.current;
    if (said && state.error?.code.startsWith("chat/") && !(said.id in state.pending)) {
      setText((current) => current || said.text);
      lastSaid.current = null;
    }
  }, [state.error]);
  const [seen, setSeen] = useState(talk.received); // lines received when the talk was hidden
  const unseen = talk.received - seen;
  const toggle = (next: boolean) => { toggled.current = true; setSeen(talk.received); setHidden(next); };

  // After Hide or Show, the keyboard stays on the button that replaced the one pressed.
  useEffect(() => {
    if (toggled.current) document.getElementById("talk-toggle")?.focus();
    toggled.current = false;
  }, [hidden]);

  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [talk.lines[talk.lines.length - 1]?.id, hidden]); // the newest line, also once the kept lines are capped

  // Lines that came while the talk was out of sight (a phone's screen is far above it): a sign
  // floats at the bottom of the screen and leads there.
  const section = useRef<HTMLElement>(null);
  const [inSight, setInSight] = useState(true);
  const [readUpTo, setReadUpTo] = useState(talk.received);
  useEffect(() => {
    const el = section.current;
    if (!el || tv || typeof IntersectionObserver === "undefined") return undefined;
    const watch = new IntersectionObserver(([e]) => setInSight(Boolean(e?.isIntersecting)));
    watch.observe(el);
    return () => watch.disconnect();
  }, [tv, hidden]);
  useEffect(() => { if (inSight) setReadUpTo(talk.received); }, [inSight, talk.received]);
  const away = !tv && !hidden && !inSight && talk.received > readUpTo ? talk.received - readUpTo : 0;
  const newSign = away > 0 ? (
    <button type="button" class="chat-new" onClick={() => section.current?.scrollIntoView({ block: "center" })} data-testid="chat-new">
      💬 {t("talk.showNew", { count: away })}
    </button>
  ) : null;

  if (hidden) {
    if (tv) return null;
    return (
      <section class="chat chat--hidden" data-testid="chat">
        <button type="button" id="talk-toggle" class="btn btn-ghost btn-small" onClick={() => toggle(false)} data-testid="talk-show">
          {unseen > 0 ? t("talk.showNew", { count: unseen }) : t("talk.show")}
        </button>
      </section>
    );
  }

  function say(e: Event) {
    e.preventDefault();
    const line = text.trim();
    if (!line || !send) return;
    lastSaid.current = { id: send({ type: "say", text: line, ...(teamTalk && toTeam ? { team: true } : {}) }), text: line };
    setText("");
  }

  const others = (room?.seats ?? []).filter((s) => s.id !== room?.host && !s.is_bot && !s.left);
  // A mute asked for shows at once (the server's answer follows).
  const isMuted = (seat: string) => {
    const asked = Object.values(state.pending).filter((c) => c.type === "mute" && c.seat === seat).pop();
    return asked && asked.type === "mute" ? asked.muted : talk.muted.includes(seat);
  };

  return (
    <section ref={section} class={`chat panel${tv ? " chat--tv" : ""}`} aria-labelledby="chat-title" data-testid="chat">
      {newSign}
      <div class="chat-head">
        <h2 id="chat-title" class="section-title">{t("talk.title")}</h2>
        {tv ? null : (
          <button type="button" id="talk-toggle" class="btn btn-ghost btn-small" aria-label={t("talk.hideLabel")} onClick={() => toggle(true)} data-testid="talk-hide">
            {t("talk.hide")}
          </button>
        )}
      </div>
      <div class="chat-log" ref={log} role="log" aria-live="polite" aria-label={t("talk.log")} tabIndex={tv ? undefined : 0} data-testid="chat-log">
        <ol class="chat-lines">
        {lines.length === 0 ? <li class="muted chat-empty">{t("talk.empty")}</li> : null}
        {lines.map((line) => (
            <li key={line.id} class={`chat-line${line.team ? " chat-line--team" : ""}`} data-testid="chat-line" data-seat={line.seat} data-team={line.team ? "1" : undefined}>
              <span class="chat-name"><RabbitIcon color={seatHex(room, line.seat)} size={16} />{line.name}</span>
              {line.team ? <span class="badge badge--team">{t("talk.teamLine")}</span> : null}
              <span class="chat-text">{line.text}</span>
            </li>
        ))}
        </ol>
      </div>
      {canTalk && send ? (
        <>
          {muted ? <p class="note chat-muted" role="status" data-testid="chat-muted">{t("talk.muted")}</p> : null}
          <ReactionButtons send={send} disabled={muted} />
          {teamTalk ? (
            <label class="check chat-team">
              <input type="checkbox" checked={toTeam} onChange={(e) => setToTeam(e.currentTarget.checked)} data-testid="chat-team" />
              <span>{t("talk.toTeam")}</span>
            </label>
          ) : null}
          <form class="chat-form" onSubmit={say}>
            <label class="sr-only" for="chat-input">{t("talk.label")}</label>
            <input id="chat-input" value={text} maxLength={MAX_CHAT_LENGTH} disabled={muted} placeholder={t("talk.placeholder")} autoComplete="off" onInput={(e) => setText(e.currentTarget.value)} data-testid="chat-input" />
            <button type="submit" class="btn btn-small" disabled={muted || !text.trim()} data-testid="chat-send">{t("talk.send")}</button>
          </form>
        </>
      ) : null}
      {canTalk && send && state.you?.is_host && others.length > 0 ? (
        <details class="chat-mutes" data-testid="chat-mutes">
          <summary>{t("talk.muteTitle")}</summary>
          {others.map((s) => (
            <label key={s.id} class="check">
              <input type="checkbox" checked={isMuted(s.id)} onChange={(e) => send({ type: "mute", seat: s.id, muted: e.currentTarget.checked })} data-testid="mute-seat" data-seat={s.id} />
              <span>{t("talk.muteSeat", { name: seatName(room, s.id) })}</span>
            </label>
          ))}
        </details>
      ) : null}
    </section>
  );
}
