import { useEffect, useState } from "preact/hooks";
import { useI18n } from "../i18n/context";
import type { Send } from "../net/socket";
import { seatName, type ClientState } from "../state/reducer";
import { REACTIONS, REACTION_EMOJI, REACTION_MS, setTalkHidden, talkHidden } from "../state/talk";
import { seatHex } from "./colors";
import { RabbitIcon } from "./Rabbit";
import "../talk.css";

const HIDDEN_EVENT = "dixit-talk-hidden";

/** Whether this player hides the chat and reactions; every component using it follows a change. */
export function useTalkHidden(): [boolean, (hidden: boolean) => void] {
  const [hidden, setHidden] = useState(talkHidden);
  useEffect(() => {
    const follow = () => setHidden(talkHidden());
    addEventListener(HIDDEN_EVENT, follow);
    return () => removeEventListener(HIDDEN_EVENT, follow);
  }, []);
  return [hidden, (next: boolean) => { setTalkHidden(next); dispatchEvent(new Event(HIDDEN_EVENT)); }];
}

/** The fixed set of quick reactions, one button each (labelled for screen readers). */
export function ReactionButtons({ send, disabled }: { send: Send; disabled: boolean }) {
  const { t } = useI18n();
  return (
    <div class="reaction-buttons" role="group" aria-label={t("talk.reactions")} data-testid="reaction-buttons">
      {REACTIONS.map((r) => (
        <button key={r} type="button" class="reaction-btn" disabled={disabled} aria-label={t(`reaction.${r}`)} title={t(`reaction.${r}`)} onClick={() => send({ type: "react", reaction: r })} data-testid={`react-${r}`}>
          <span aria-hidden="true">{REACTION_EMOJI[r]}</span>
        </button>
      ))}
    </div>
  );
}

/** Reactions on the table for a few seconds: who, and which. Nothing to click; out of the way. */
export function ReactionsShown({ state, big: bigAsked = false }: { state: ClientState; big?: boolean }) {
  const { t } = useI18n();
  const big = bigAsked || state.you?.role === "spectator";
  const [hidden] = useTalkHidden();
  const [now, setNow] = useState(Date.now());
  const live = state.talk.reactions.filter((r) => now - r.shownAt < REACTION_MS);
  const newest = state.talk.reactions[state.talk.reactions.length - 1];
  useEffect(() => {
    setNow(Date.now());
    if (!newest) return undefined;
    const id = setTimeout(() => setNow(Date.now()), REACTION_MS + 50);
    return () => clearTimeout(id);
  }, [newest?.key]);
  if (hidden) return null;
  const said = (seat: string, reaction: string) => t("talk.reacted", { name: seatName(state.room, seat), reaction: t(`reaction.${reaction}`) });
  return (
    <div class={`reactions-shown${big ? " reactions-shown--big" : ""}`} data-testid="reactions-shown">
      <p class="sr-only" aria-live="polite">{newest && live.includes(newest) ? said(newest.seat, newest.reaction) : ""}</p>
      {live.slice(big ? -6 : -3).map((r) => {
        return (
          <span key={r.key} class="reaction-chip" aria-hidden="true" data-testid="reaction-chip" data-reaction={r.reaction}>
            <span class="reaction-emoji">{REACTION_EMOJI[r.reaction]}</span>
            <RabbitIcon color={seatHex(state.room, r.seat)} size={big ? 34 : 18} />
            <span class="reaction-name">{seatName(state.room, r.seat)}</span>
          </span>
        );
      })}
    </div>
  );
}
