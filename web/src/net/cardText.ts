/**
 * Card words from the decks' metadata (`GET /api/decks/{slug}/cards?lang=xx`, one request per
 * deck and language, kept in memory for the page's life): alt text, title, description and, for
 * illustrated cards, credits, in the viewer's language (the server falls back to English). Card
 * ids are `<deck-slug>-<12 hex>`, so a card names its deck; where a deck (or card) has no words
 * the caller's fallback ("Card N") is used.
 */
import { useEffect, useState } from "preact/hooks";
import { useI18n } from "../i18n/context";
import type { CardText, DeckCards } from "../protocol";
import { api } from "./api";

const CARD_ID = /^([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)-[0-9a-f]{12}$/;

/** The deck slug a card id starts with, or null for an id of another shape. */
export function deckOf(cardId: string): string | null {
  return CARD_ID.exec(cardId)?.[1] ?? null;
}

/** id → the card's words, for the cards that have real alt text. */
export function described(deck: DeckCards): Map<string, CardText> {
  const out = new Map<string, CardText>();
  for (const c of deck.cards) if (c.alt?.trim()) out.set(c.id, { ...c, alt: c.alt.trim() });
  return out;
}

type Loader = (slug: string, lang: string) => Promise<DeckCards>;

/** A cache of decks' words per language; `onChange` runs when a deck arrives. */
export class CardTexts {
  private decks = new Map<string, DeckCards | "loading">();
  private words = new Map<string, Map<string, CardText>>();
  private listeners = new Set<() => void>();

  constructor(
    private load: Loader = api.deckCards,
    private retryMs = 30_000,
  ) {}

  /** The card's words in `lang`, or null (unknown yet, none, or not loaded). */
  card(cardId: string, lang: string): CardText | null {
    const slug = deckOf(cardId);
    return (slug === null ? undefined : this.words.get(`${slug} ${lang}`)?.get(cardId)) ?? null;
  }

  /** The card's alt text in `lang`, or `fallback`. */
  alt(cardId: string, lang: string, fallback: string): string {
    return this.card(cardId, lang)?.alt ?? fallback;
  }

  /** A whole deck in `lang` once loaded (the credits view). */
  deck(slug: string, lang: string): DeckCards | null {
    const d = this.decks.get(`${slug} ${lang}`);
    return typeof d === "object" ? d : null;
  }

  /** Start loading these decks in `lang` where neither loaded nor loading. */
  wantDecks(slugs: Iterable<string>, lang: string): void {
    for (const slug of slugs) {
      const key = `${slug} ${lang}`;
      if (this.decks.has(key)) continue;
      this.decks.set(key, "loading");
      this.load(slug, lang).then(
        (deck) => {
          this.decks.set(key, deck);
          this.words.set(key, described(deck));
          this.listeners.forEach((f) => f());
        },
        () => {
          // Keep the fallback for now; ask again a while later.
          setTimeout(() => this.decks.delete(key), this.retryMs);
        },
      );
    }
  }

  /** Start loading the decks of these cards. */
  want(cardIds: readonly string[], lang: string): void {
    const slugs = new Set<string>();
    for (const id of cardIds) {
      const slug = deckOf(id);
      if (slug !== null) slugs.add(slug);
    }
    this.wantDecks(slugs, lang);
  }

  /** Forget a deck in every language (its captions changed). */
  forget(slug: string): void {
    for (const key of [...this.decks.keys()]) {
      if (key.startsWith(`${slug} `)) {
        this.decks.delete(key);
        this.words.delete(key);
      }
    }
    this.listeners.forEach((f) => f());
  }

  subscribe(f: () => void): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }
}

export const cardTexts = new CardTexts();

/** Re-render when decks' words arrive. */
function useCardTexts(): void {
  const [, setTick] = useState(0);
  useEffect(() => cardTexts.subscribe(() => setTick((n) => n + 1)), []);
}

/** `alt(id, fallback)` for these cards in the viewer's language; re-renders as decks arrive. */
export function useCardAlt(cardIds: readonly string[]): (id: string, fallback: string) => string {
  const { lang } = useI18n();
  useCardTexts();
  useEffect(() => cardTexts.want(cardIds, lang), [cardIds.join(" "), lang]);
  return (id, fallback) => cardTexts.alt(id, lang, fallback);
}

/** One card's words in the viewer's language (null until known). */
export function useCardWords(cardId: string): CardText | null {
  const { lang } = useI18n();
  useCardTexts();
  useEffect(() => cardTexts.want([cardId], lang), [cardId, lang]);
  return cardTexts.card(cardId, lang);
}

/** A whole deck in the viewer's language (null until loaded). */
export function useDeckWords(slug: string | null): DeckCards | null {
  const { lang } = useI18n();
  useCardTexts();
  useEffect(() => { if (slug) cardTexts.wantDecks([slug], lang); }, [slug, lang]);
  return slug ? cardTexts.deck(slug, lang) : null;
}
