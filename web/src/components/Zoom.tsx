import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { deckOf, useCardWords } from "../net/cardText";
import { cardUrl } from "./Card";
import type { RowCard } from "./CardRow";
import { DeckCredits, creditLine } from "./Credits";
import type { T } from "../i18n";

interface Props {
  cards: RowCard[];
  start: number;
  onClose: () => void;
  onSelect?: (id: string) => void;
  t: T;
}

/** A card full screen. Arrows or a swipe go through the row; Escape closes. */
export function Zoom({ cards, start, onClose, onSelect, t }: Props) {
  const [index, setIndex] = useState(start);
  const [credits, setCredits] = useState<string | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const touch = useRef<number | null>(null);
  const card = cards[Math.min(index, cards.length - 1)];
  const go = (d: number) => setIndex((i) => Math.max(0, Math.min(cards.length - 1, i + d)));

  const close = useRef(onClose);
  close.current = onClose;
  const words = useCardWords(card?.id ?? "");

  // A layout effect: the keys work from the moment the zoom is on screen (a plain effect runs
  // after paint, so an Escape pressed at once could be lost).
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector(".credits")) return; // the credits view has the keys
      if (e.key === "Escape") close.current();
      else if (e.key === "ArrowLeft") go(-1);
      else if (e.key === "ArrowRight") go(1);
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      before?.focus?.();
    };
  }, []);

  if (!card) return null;
  return (
    <div class="zoom" role="dialog" aria-modal="true" aria-label={words?.title ?? card.alt} data-testid="zoom"
      onClick={(e) => { if (e.target === e.currentTarget) onClose(); }}
      onTouchStart={(e) => { touch.current = e.touches[0]?.clientX ?? null; }}
      onTouchEnd={(e) => {
        const x0 = touch.current;
        const x1 = e.changedTouches[0]?.clientX;
        touch.current = null;
        if (x0 === null || x1 === undefined) return;
        if (x1 - x0 > 50) go(-1);
        else if (x0 - x1 > 50) go(1);
      }}>
      <figure class="zoom-figure">
        <img src={cardUrl(card.id)} alt="" />
        <figcaption data-testid="zoom-caption">
          {card.number !== undefined ? <strong>{card.number}. </strong> : null}
          {words?.title ? <strong class="zoom-title">{words.title}</strong> : null}
          <span class="zoom-text">{words?.description ?? card.alt}</span>
          {words?.credits ? (
            <span class="zoom-credit" data-testid="zoom-credit">
              {creditLine(words.credits)}{" "}
              <button type="button" class="linkish" onClick={() => setCredits(deckOf(card.id))} data-testid="deck-credits">{t("credits.open")}</button>
            </span>
          ) : null}
        </figcaption>
      </figure>
      <div class="zoom-bar">
        <button type="button" class="btn btn-ghost" onClick={() => go(-1)} disabled={index === 0} aria-label={t("game.prev")}>‹</button>
        {onSelect && card.choosable ? (
          <button type="button" class="btn btn-primary" onClick={() => { onSelect(card.id); onClose(); }}>
            {card.selected ? t("game.selected") : t("game.select")}
          </button>
        ) : null}
        <button type="button" class="btn" ref={closeRef} onClick={onClose}>{t("game.close")}</button>
        <button type="button" class="btn btn-ghost" onClick={() => go(1)} disabled={index >= cards.length - 1} aria-label={t("game.next")}>›</button>
      </div>
      {credits ? <DeckCredits slug={credits} onClose={() => setCredits(null)} /> : null}
    </div>
  );
}
