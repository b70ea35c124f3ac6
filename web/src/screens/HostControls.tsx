import { useI18n } from "../i18n/context";
import type { GameView, RoomState } from "../protocol";
import { seatName } from "../state/reducer";
import type { Send } from "../net/socket";

/** During a game the host can hand a late seat to the computer, or end the game. */
export function HostControls({ view, room, send }: { view: GameView; room: RoomState; send: Send }) {
  const { t } = useI18n();
  const late = view.waiting_for.filter((id) => {
    const seat = room.seats.find((s) => s.id === id);
    return seat && !seat.is_bot;
  });
  return (
    <details class="panel host" data-testid="host-controls">
      <summary>{t("host.controls")}</summary>
      {late.map((id) => (
        <button key={id} class="btn btn-small" onClick={() => send({ type: "set_bot", seat: id, bot: true })}>
          {t("host.botFor", { name: seatName(room, id) })}
        </button>
      ))}
      <button class="btn btn-small btn-danger" onClick={() => send({ type: "end_game" })}>{t("host.end")}</button>
    </details>
  );
}
