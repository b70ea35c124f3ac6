import { RabbitIcon } from "./Rabbit";
import { seatHex } from "./colors";
import { useI18n } from "../i18n/context";
import type { GameView, RoomState } from "../protocol";

/** Everyone at the table: rabbit, name, team (team play), score, who tells, who is done and who is awaited. */
export function Players({ view, room, gained }: { view: GameView; room: RoomState; gained?: Map<string, number> }) {
  const { t } = useI18n();
  return (
    <ul class="players" data-testid="players">
      {view.players.map((id, at) => {
        const team = view.rules.team_size > 1 ? Math.floor(at / view.rules.team_size) + 1 : null;
        const seat = room.seats.find((s) => s.id === id);
        const waiting = view.waiting_for.includes(id);
        const acted = view.acted.includes(id);
        const teller = view.storyteller === id && view.phase !== "over"; // no one tells once the game is over
        const plus = gained?.get(id);
        return (
          <li key={id} class={`player${waiting ? " is-waiting" : ""}${teller ? " is-teller" : ""}${id === view.viewer ? " is-me" : ""}${seat && !seat.connected && !seat.is_bot ? " is-offline" : ""}`} data-testid="player" data-player={id} data-waiting={waiting ? "1" : "0"}>
            <RabbitIcon color={seatHex(room, id)} size={26} />
            <span class="player-name">{seat?.name ?? id}</span>
            <span class="player-score" data-testid="player-score">{view.scores[id] ?? 0}</span>
            {plus ? <span class="player-gain">+{plus}</span> : null}
            <span class="player-status">
              {team ? <span class={`badge badge--team team-${team % 2 ? "odd" : "even"}`} data-testid="player-team">{t("game.team", { n: team })}</span> : null}
              {teller ? <span class="badge badge--teller" title={t("game.storyteller")}>✎ {t("game.storyteller")}</span> : null}
              {acted ? <span class="badge badge--done">✓ {t("game.acted")}</span> : null}
              {waiting && !teller ? <span class="badge badge--wait">… {t("game.waiting")}</span> : null}
              {seat?.is_bot ? <span class="badge badge--bot">{t("lobby.bot")}</span> : null}
              {seat && !seat.connected && !seat.is_bot ? <span class="badge badge--off">{t("lobby.offline")}</span> : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
