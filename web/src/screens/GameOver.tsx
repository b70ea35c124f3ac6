import { navigate } from "../routes";
import { RabbitIcon } from "../components/Rabbit";
import { seatHex } from "../components/colors";
import { useI18n } from "../i18n/context";
import type { T } from "../i18n";
import type { GameView, RoomState } from "../protocol";
import { seatName } from "../state/reducer";
import { names } from "./Banner";
import type { Send } from "../net/socket";

/** Why the game ended, in the player's words. */
export function endReason(t: T, view: GameView, room: RoomState): string {
  switch (view.end_reason) {
    case "deck_exhausted": return t("over.why.deck");
    case "score_reached": {
      const n = view.rules.end_at_score ?? 30;
      const reached = view.players.filter((p) => (view.scores[p] ?? 0) >= n);
      return reached.length > 0 ? t("over.why.scoreBy", { name: names(room, reached), count: n }) : t("over.why.score", { count: n });
    }
    case "round_limit": return t("over.why.rounds", { count: view.rules.max_rounds ?? view.round });
    default: return t("over.ended");
  }
}

/** "Ann wins!" or "Ann and Bo share the victory!" */
export function winnersLine(t: T, room: RoomState, winners: string[]): string {
  const who = names(room, winners);
  return winners.length > 1 ? t("over.winners", { names: who }) : t("over.winner", { names: who });
}

/** The end: winners, final ranking, rematch (host) or a new room. */
export function GameOver({ view, room, isHost, send }: { view: GameView; room: RoomState; isHost: boolean; send: Send }) {
  const { t } = useI18n();
  const ranking = [...view.players].sort((a, b) => (view.scores[b] ?? 0) - (view.scores[a] ?? 0));
  return (
    <section class="panel over" data-testid="game-over">
      <h2>{t("over.title")}</h2>
      {view.winners.length > 0 ? (
        <p class="winners" data-testid="winners">🏆 {winnersLine(t, room, view.winners)}</p>
      ) : null}
      <p class="end-reason" data-testid="end-reason" data-reason={view.end_reason ?? "ended_by_host"}>{endReason(t, view, room)}</p>
      <ol class="ranking">
        {ranking.map((p) => (
          <li key={p}>
            <RabbitIcon color={seatHex(room, p)} size={26} />
            <span>{seatName(room, p)}</span>
            <strong>{view.scores[p] ?? 0}</strong>
          </li>
        ))}
      </ol>
      <div class="over-actions">
        {isHost ? <button class="btn btn-primary btn-big" onClick={() => send({ type: "rematch" })} data-testid="rematch">{t("over.rematch")}</button> : null}
        <button class="btn" onClick={() => navigate("/")}>{t("over.home")}</button>
      </div>
    </section>
  );
}
