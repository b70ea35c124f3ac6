import { useState } from "preact/hooks";
import { CardRow, type RowCard } from "../components/CardRow";
import { Players } from "../components/Players";
import { QrCode } from "../components/QrCode";
import { ScoreTrack } from "../components/ScoreTrack";
import { Zoom } from "../components/Zoom";
import { rabbitHex } from "../components/colors";
import { useI18n } from "../i18n/context";
import { useCardAlt } from "../net/cardText";
import type { ClientState } from "../state/reducer";
import { revealedRound, roundPoints, seatName, shownView } from "../state/reducer";
import { Banner, ClueBubble, names } from "./Banner";
import { endReason } from "./GameOver";
import { Reveal } from "./Reveal";
import { joinUrl } from "./Lobby";
import { Chat } from "../components/Chat";
import { ReactionsShown } from "../components/Reactions";

/** The spectator / TV view: the table and the scores, large; no hands. */
export function Tv({ state }: { state: ClientState }) {
  const { t } = useI18n();
  const view = shownView(state)!;
  const room = state.room!;
  const [zoom, setZoom] = useState<{ cards: RowCard[]; index: number } | null>(null);
  const reveal = revealedRound(view);
  const alt = useCardAlt(view.table);
  const tableCards: RowCard[] = view.table.map((id, i) => ({ id, alt: alt(id, t("game.tableCard", { n: i + 1 })), number: i + 1 }));
  const trackPlayers = view.players.map((id) => ({ id, name: seatName(room, id), color: rabbitHex(room.seats.find((s) => s.id === id)?.colour), score: view.scores[id] ?? 0 }));
  const gained = reveal ? new Map([...roundPoints(reveal)].map(([p, e]) => [p, e.total])) : undefined;
  return (
    <main class="tv" data-testid="tv">
      <Banner view={view} room={room} />
      <div class="tv-grid">
        <div class="tv-main">
          {view.phase === "over" ? (
            <section class="panel over" data-testid="game-over">
              <h2>{t("over.title")}</h2>
              {view.winners.length > 0 ? <p class="winners">🏆 {t(view.winners.length > 1 ? "over.winners" : "over.winner", { names: names(room, view.winners) })}</p> : null}
              <p class="end-reason" data-testid="end-reason">{endReason(t, view)}</p>
            </section>
          ) : null}
          {reveal ? <Reveal result={reveal} room={room} onZoom={(cards, index) => setZoom({ cards, index })} /> : null}
          {view.clue && view.phase !== "clue" && view.phase !== "over" ? <ClueBubble clue={view.clue} teller={seatName(room, view.storyteller)} /> : null}
          {view.phase === "submit" ? (
            <div class="facedown" role="img" aria-label={t("game.cardsIn", { n: view.acted.length + 1 })}>{Array.from({ length: view.acted.length + 1 }, (_, i) => <span key={i} class="card-back" />)}</div>
          ) : null}
          {view.phase === "vote" ? <CardRow cards={tableCards} label={t("game.table")} kind="table" onZoom={(i) => setZoom({ cards: tableCards, index: i })} t={t} /> : null}
        </div>
        <aside class="tv-side">
          <ScoreTrack players={trackPlayers} label={t("game.scores")} target={view.rules.end_at_score} lapLabel={(n) => t("track.lap", { n })} scoreLabel={(name, n, lap) => t(lap > 1 ? "track.scoreLap" : "track.score", { name, n, lap })} />
          <Players view={view} room={room} gained={gained} />
          <div class="tv-foot">
            <div class="tv-join">
              <QrCode text={joinUrl(room.code)} label={t("lobby.qr")} />
              <span>{t("tv.join", { url: joinUrl(room.code) })}</span>
            </div>
            <Chat state={state} tv />
          </div>
        </aside>
      </div>
      <ReactionsShown state={state} big />
      {zoom ? <Zoom cards={zoom.cards} start={zoom.index} onClose={() => setZoom(null)} t={t} /> : null}
    </main>
  );
}
