/**
 * Card alt text from the decks' metadata (`GET /api/decks/{slug}/cards`, one request per deck,
 * kept in memory for the page's life). Card ids are `<deck-slug>-<12 hex>`, so a card names its
 * deck; where a deck (or card) has no alt text the caller's fallback ("Card N") is used.
 */
import { useEffect, useState } from "preact/hooks";
import type { DeckCards } from "../protocol";
import { api } from "./api";

const CARD_ID = /^([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)-[0-9a-f]{12}$/;

/** The deck slug a card id starts with, or null for an id of another shape. */
export function deckOf(cardId: string): string | null {
  return CARD_ID.exec(cardId)?.[1] ?? null;
}

/** id → alt text, for the cards that have some. */
export function altTexts(deck: DeckCards): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of deck.cards) {
    const alt = c.alt?.trim();
    if (alt) out.set(c.id, alt);
  }
  return out;
}

type Loader = (slug: string) => Promise<DeckCards>;

/** A cache of decks' alt text; `onChange` runs when a deck arrives. */
export class CardTexts {
  private decks = new Map<string, Map<string, string> | "loading">();
  private listeners = new Set<() => void>();

  constructor(
    private load: Loader = api.deckCards,
    private retryMs = 30_000,
  ) {}

  /** The card's alt text from its deck, or `fallback` (unknown yet, none, or not loaded). */
  alt(cardId: string, fallback: string): string {
    const slug = deckOf(cardId);
    const deck = slug === null ? undefined : this.decks.get(slug);
    return (typeof deck === "object" ? deck.get(cardId) : undefined) ?? fallback;
  }

  /** Start loading the decks of these cards that are neither loaded nor loading. */
  want(cardIds: readonly string[]): void {
    for (const id of cardIds) {
      const slug = deckOf(id);
      if (slug === null || this.decks.has(slug)) continue;
      this.decks.set(slug, "loading");
      this.load(slug).then(
        (deck) => {
          this.decks.set(slug, altTexts(deck));
          this.listeners.forEach((f) => f());
        },
        () => {
          // Keep the fallback for now; ask again a while later.
          setTimeout(() => this.decks.delete(slug), this.retryMs);
        },
      );
    }
  }

  subscribe(f: () => void): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }
}

export const cardTexts = new CardTexts();

/** `alt(id, fallback)` for these cards; re-renders when their decks' metadata arrives. */
export function useCardAlt(cardIds: readonly string[]): (id: string, fallback: string) => string {
  const [, setTick] = useState(0);
  useEffect(() => cardTexts.subscribe(() => setTick((n) => n + 1)), []);
  useEffect(() => cardTexts.want(cardIds), [cardIds.join(" ")]);
  return (id, fallback) => cardTexts.alt(id, fallback);
}
