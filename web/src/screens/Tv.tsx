import { useState } from "preact/hooks";
import { CardRow, type RowCard } from "../components/CardRow";
import { Players } from "../components/Players";
import { QrCode } from "../components/QrCode";
import { ScoreTrack } from "../components/ScoreTrack";
import { Zoom } from "../components/Zoom";
import { seatHex } from "../components/colors";
import { useI18n } from "../i18n/context";
import { useCardAlt } from "../net/cardText";
import type { ClientState } from "../state/reducer";
import { discardPile, revealedRound, roundPoints, seatName, shownView, turn } from "../state/reducer";
import { Banner, ClueBubble, turnText } from "./Banner";
import { History } from "./History";
import { endReason, winnersLine } from "./GameOver";
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
  const [history, setHistory] = useState(false);
  const reveal = revealedRound(view);
  const alt = useCardAlt(view.table);
  const tableCards: RowCard[] = view.table.map((id, i) => ({ id, alt: alt(id, t("game.tableCard", { n: i + 1 })), number: i + 1 }));
  const trackPlayers = view.players.map((id) => ({ id, name: seatName(room, id), color: seatHex(room, id), score: view.scores[id] ?? 0 }));
  const gained = reveal ? new Map([...roundPoints(reveal)].map(([p, e]) => [p, e.total])) : undefined;
  return (
    <main class="tv" data-testid="tv">
      <h1 class="sr-only">{t("tv.title", { code: room.code })}</h1>
      <Banner view={view} room={room} onHistory={() => setHistory(true)} onDiscard={() => setZoom({ cards: discardPile(state.rounds, view.discard_count).map((id, i) => ({ id, alt: t("game.discardCard", { n: i + 1 }) })), index: 0 })} />
      <div class="tv-grid">
        <div class="tv-main">
          {view.phase === "over" ? (
            <section class="panel over" data-testid="game-over">
              <h2>{t("over.title")}</h2>
              {view.winners.length > 0 ? <p class="winners">🏆 {winnersLine(t, room, view.winners)}</p> : null}
              <p class="end-reason" data-testid="end-reason">{endReason(t, view, room)}</p>
            </section>
          ) : null}
          {view.phase === "clue" && !reveal ? (
            <section class="panel tv-think" data-testid="tv-think">
              <p>✎ {turnText(t, turn(view), room)}</p>
              <ul class="tv-rules">
                {/* party play scores otherwise: its own paragraph */}
                {view.rules.mode === "party" ? <li>{t("rules.mode.party.about")}</li> : (
                  <>
                    <li>{t("help.aim")}</li>
                    <li>{t("help.score.some")}</li>
                    <li>{t("help.score.all")}</li>
                    <li>{t("help.score.votes")}</li>
                  </>
                )}
              </ul>
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
          <ScoreTrack players={trackPlayers} label={t("game.scores")} target={view.rules.end_at_score} lapLabel={(n) => t("track.lap", { n })} scoreLabel={(name, n, lap) => t(lap > 1 ? "track.scoreLap" : "track.score", { name, count: n, lap })} />
          <Players view={view} room={room} gained={gained} />
          <div class="tv-foot">
            <div class="tv-join" data-testid="tv-join">
              <QrCode text={joinUrl(room.code)} label={t("lobby.qr")} />
              <span class="tv-code" data-testid="tv-code">{room.code}</span>
              <span class="tv-url">{t("tv.join", { url: joinUrl(room.code) })}</span>
            </div>
            <Chat state={state} tv />
          </div>
        </aside>
      </div>
      <ReactionsShown state={state} big />
      {history ? <History rounds={state.rounds} room={room} onZoom={(cards, index) => setZoom({ cards, index })} onClose={() => setHistory(false)} /> : null}
      {zoom ? <Zoom cards={zoom.cards} start={zoom.index} onClose={() => setZoom(null)} t={t} /> : null}
    </main>
  );
}
