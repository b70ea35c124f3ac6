import { useState } from "preact/hooks";
import { LevelSelect } from "../components/LevelSelect";
import { useI18n } from "../i18n/context";
import type { GameView, RoomState } from "../protocol";
import { seatName } from "../state/reducer";
import type { Send } from "../net/socket";

/** During a game the host can hand a late seat to the computer, or end the game. */
export function HostControls({ view, room, send }: { view: GameView; room: RoomState; send: Send }) {
  const { t } = useI18n();
  const [confirming, setConfirming] = useState(false);
  const late = view.waiting_for.filter((id) => {
    const seat = room.seats.find((s) => s.id === id);
    return seat && !seat.is_bot;
  });
  return (
    <details class="panel host" data-testid="host-controls">
      <summary>{t("host.controls")}</summary>
      {room.seats.filter((x) => x.is_bot && x.bot_level && !x.autoplay).map((x) => (
        <label key={x.id} class="field field--inline">
          <span>{x.name}</span>
          <LevelSelect value={x.bot_level!} onChange={(level) => send({ type: "set_bot_level", player: x.id, level })} label={t("bot.levelOf", { name: x.name })} testid="game-level" />
        </label>
      ))}
      {late.map((id) => (
        <button key={id} class="btn btn-small" onClick={() => send({ type: "set_bot", seat: id, bot: true })}>
          {t("host.botFor", { name: seatName(room, id) })}
        </button>
      ))}
      {confirming ? (
        <div class="confirm" role="group" aria-labelledby="end-confirm">
          <p id="end-confirm">{t("host.endConfirm")}</p>
          <button class="btn btn-small btn-danger" onClick={() => { setConfirming(false); send({ type: "end_game" }); }} data-testid="end-yes">{t("host.endYes")}</button>
          <button class="btn btn-small" ref={(b) => b?.focus()} onClick={() => setConfirming(false)} data-testid="end-no">{t("host.endNo")}</button>
        </div>
      ) : (
        <button class="btn btn-small btn-danger" onClick={() => setConfirming(true)} data-testid="end-game">{t("host.end")}</button>
      )}
    </details>
  );
}
