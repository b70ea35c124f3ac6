import { describe, expect, it } from "vitest";
import { CardTexts, altTexts, deckOf } from "../src/net/cardText";
import type { DeckCards } from "../src/protocol";

const deck: DeckCards = {
  slug: "default-1",
  cards: [
    { id: "default-1-0123456789ab", title: "Protected", alt: "A hippo in a soap bubble." },
    { id: "default-1-aaaaaaaaaaaa", title: null, alt: null },
    { id: "default-1-bbbbbbbbbbbb", title: "Blank", alt: "   " },
  ],
};

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("card alt text from deck metadata", () => {
  it("reads the deck slug from a card id", () => {
    expect(deckOf("default-1-0123456789ab")).toBe("default-1");
    expect(deckOf("our-holiday-2-ffffffffffff")).toBe("our-holiday-2");
    expect(deckOf("c1")).toBeNull();
    expect(deckOf("default-1-XYZ")).toBeNull();
  });

  it("keeps only real alt text", () => {
    expect([...altTexts(deck)]).toEqual([["default-1-0123456789ab", "A hippo in a soap bubble."]]);
  });

  it("falls back until the deck arrives, then uses its alt text; one request per deck", async () => {
    const asked: string[] = [];
    const texts = new CardTexts(async (slug) => {
      asked.push(slug);
      return deck;
    });
    let changes = 0;
    texts.subscribe(() => changes++);
    const ids = ["default-1-0123456789ab", "default-1-aaaaaaaaaaaa", "default-1-bbbbbbbbbbbb"];
    expect(texts.alt(ids[0]!, "Card 1")).toBe("Card 1");
    texts.want(ids);
    texts.want(ids);
    await flush();
    expect(asked).toEqual(["default-1"]);
    expect(changes).toBe(1);
    expect(texts.alt(ids[0]!, "Card 1")).toBe("A hippo in a soap bubble.");
    expect(texts.alt(ids[1]!, "Card 2")).toBe("Card 2");
    expect(texts.alt(ids[2]!, "Card 3")).toBe("Card 3");
    expect(texts.alt("default-1-cccccccccccc", "Card 4")).toBe("Card 4");
    expect(texts.alt("odd", "Card 5")).toBe("Card 5");
  });

  it("keeps the fallback when the deck cannot be loaded, and asks again later", async () => {
    let calls = 0;
    const texts = new CardTexts(async () => {
      calls++;
      throw new Error("404");
    }, 0);
    texts.want(["gone-0123456789ab"]);
    await flush();
    expect(texts.alt("gone-0123456789ab", "Card 1")).toBe("Card 1");
    await flush();
    texts.want(["gone-0123456789ab"]);
    await flush();
    expect(calls).toBe(2);
  });
});
