import { useEffect, useRef } from "preact/hooks";
import { CardRow, type RowCard } from "../components/CardRow";
import { RabbitIcon } from "../components/Rabbit";
import { seatHex } from "../components/colors";
import { useI18n } from "../i18n/context";
import { useCardAlt } from "../net/cardText";
import type { T } from "../i18n";
import type { RoomState, RoundResult } from "../protocol";
import { roundPoints, seatName } from "../state/reducer";
import { ClueBubble } from "./Banner";

export function cardAlt(t: T, index: number): string {
  return t("game.cardAlt", { n: index + 1 });
}

/** A revealed round: the clue, the outcome, the table with whose card each was and who voted
 * for it, and each player's points with the reasons. The reveal shows the latest round with it;
 * the round history shows every past one. */
export function RoundBody({ result, room, onZoom }: { result: RoundResult; room: RoomState; onZoom: (cards: RowCard[], i: number) => void }) {
  const { t } = useI18n();
  const alt = useCardAlt(result.table);
  const points = roundPoints(result);
  const owner = new Map(result.owners.map((o) => [o.card, o.player]));
  // Two votes each (Odyssey, 7+): a voter's votes are listed first vote first; each token says which.
  const token = voteTokens(result.votes);
  const twoVotes = token.some((n) => n === 2);
  const cards: RowCard[] = result.table.map((id, i) => {
    const votes = result.votes.map((v, at) => ({ ...v, n: token[at]! })).filter((v) => v.card === id);
    const voters = votes.map((v) => v.player);
    const who = owner.get(id) ?? "";
    const teller = id === result.storyteller_card;
    const voided = id === result.void;
    return {
      id,
      alt: alt(id, cardAlt(t, i)),
      number: i + 1,
      tag: teller ? t("reveal.storytellerCard", { name: seatName(room, who) }) : voided ? t("game.voided") : undefined,
      selected: teller,
      extra: (
        <div class="reveal-info">
          {!teller ? (
            <span class="reveal-owner">
              <span class="reveal-owner-long">{t("reveal.owner", { name: seatName(room, who) })}</span>
              {/* the TV: the owner's rabbit and name only, large, in a card's narrow column */}
              <span class="reveal-owner-short" aria-hidden="true"><RabbitIcon color={seatHex(room, who)} size={26} />{seatName(room, who)}</span>
            </span>
          ) : null}
          {voided ? <span class="reveal-void" data-testid="reveal-void">{t("reveal.voided")}</span> : null}
          <span class="sr-only">{voters.length ? t("reveal.votedBy", { names: votes.map((v) => v.n === 2 ? t("reveal.secondVote", { name: seatName(room, v.player) }) : seatName(room, v.player)).join(", ") }) : t("reveal.noVotes")}</span>
          <span class="voters" aria-hidden="true">
            {votes.map((v) => (
              <span class={`voter${v.n === 2 ? " voter--second" : ""}`} key={`${v.player}/${v.n}`} data-testid="voter" data-vote={v.n}>
                <RabbitIcon color={seatHex(room, v.player)} size={18} /><span class="voter-name">{seatName(room, v.player)}</span>
                {twoVotes ? <span class="vote-token" title={t(v.n === 2 ? "game.secondVote" : "game.firstVote")}>{v.n}</span> : null}
              </span>
            ))}
          </span>
        </div>
      ),
    };
  });
  return (
    <>
      <ClueBubble clue={result.clue} teller={seatName(room, result.storyteller)} />
      <p class="outcome">{t(`reveal.outcome.${result.outcome}`)}</p>
      <CardRow cards={cards} label={t("game.table")} kind="table" onZoom={(i) => onZoom(cards, i)} t={t} />
      <h3>{t("reveal.roundPoints")}</h3>
      <ul class="points" data-testid="round-points">
        {seatOrder(room, result).map((p) => {
          const entry = points.get(p);
          return (
            <li key={p} data-testid="round-point" data-player={p}>
              <RabbitIcon color={seatHex(room, p)} size={22} />
              <strong>{seatName(room, p)}</strong>
              <span class="points-total">+{entry?.total ?? 0}</span>
              <span class="points-why">
                {entry ? entry.reasons.map((r) => `${r.points} · ${reasonText(t, r.reason, r.points)}`).join("; ") : t("reason.none")}
              </span>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** The latest round revealed. It stays until the player closes it (`onClose`); the server holds
 * the next turn a bounded while for it, then goes on, and the reveal is still there to read. */
export function Reveal({ result, room, onZoom, onClose }: { result: RoundResult; room: RoomState; onZoom: (cards: RowCard[], i: number) => void; onClose?: () => void }) {
  const { t } = useI18n();
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!onClose) return;
    const lost = document.activeElement === document.body || document.activeElement?.id === "banner";
    if (lost) closeRef.current?.focus({ preventScroll: true });
  }, [result.round, Boolean(onClose)]);
  return (
    <section class="panel reveal" data-testid="reveal" aria-labelledby="reveal-title">
      <h2 id="reveal-title">{t("reveal.title")} · {t("game.round", { n: result.round })}</h2>
      <RoundBody result={result} room={room} onZoom={onZoom} />
      {onClose ? (
        <div class="reveal-next">
          <button class="btn btn-primary reveal-close" ref={closeRef} onClick={onClose} data-testid="reveal-close">{t("reveal.continue")}</button>
        </div>
      ) : null}
    </section>
  );
}

/** Which of its voter's votes each vote is (1 or 2): a voter with two is listed twice, first vote first. */
export function voteTokens(votes: readonly { player: string }[]): number[] {
  const seen = new Map<string, number>();
  return votes.map((v) => {
    const n = (seen.get(v.player) ?? 0) + 1;
    seen.set(v.player, n);
    return n;
  });
}

/** The round's players in seat order (the room's seats), whoever owned a card on the table. */
function seatOrder(room: RoomState, result: RoundResult): string[] {
  const inRound = new Set(result.owners.map((o) => o.player));
  const seated = room.seats.map((s) => s.id).filter((id) => inRound.has(id));
  return [...seated, ...[...inRound].filter((id) => !seated.includes(id))];
}

export function reasonText(t: T, reason: string, points?: number): string {
  // Four points for finding (or being found by) the only finder: the lone-finder bonus.
  if (points === 4 && (reason === "found_storyteller" || reason === "storyteller_found_by_some")) return t("reason.loneFinder");
  const text = t(`reason.${reason}`);
  return text.startsWith("⟦") ? reason : text;
}
