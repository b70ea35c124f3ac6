import { describe, expect, it } from "vitest";
import { CardTexts, deckOf, described } from "../src/net/cardText";
import type { DeckCards } from "../src/protocol";

const none = { description: null, credits: null };
const deck: DeckCards = {
  slug: "default-1",
  lang: "en",
  cards: [
    { id: "default-1-0123456789ab", title: "Protected", alt: "A hippo in a soap bubble.", ...none },
    { id: "default-1-aaaaaaaaaaaa", title: null, alt: null, ...none },
    { id: "default-1-bbbbbbbbbbbb", title: "Blank", alt: "   ", ...none },
  ],
};
const italian: DeckCards = {
  ...deck,
  lang: "it",
  cards: [{ id: "default-1-0123456789ab", title: "Protetto", alt: "Un ippopotamo in una bolla.", ...none }],
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
    expect([...described(deck).keys()]).toEqual(["default-1-0123456789ab"]);
  });

  it("falls back until the deck arrives, then uses its alt text; one request per deck", async () => {
    const asked: string[] = [];
    const texts = new CardTexts(async (slug, lang) => {
      asked.push(`${slug} ${lang}`);
      return lang === "it" ? italian : deck;
    });
    let changes = 0;
    texts.subscribe(() => changes++);
    const ids = ["default-1-0123456789ab", "default-1-aaaaaaaaaaaa", "default-1-bbbbbbbbbbbb"];
    expect(texts.alt(ids[0]!, "en", "Card 1")).toBe("Card 1");
    texts.want(ids, "en");
    texts.want(ids, "en");
    await flush();
    expect(asked).toEqual(["default-1 en"]);
    expect(changes).toBe(1);
    expect(texts.alt(ids[0]!, "en", "Card 1")).toBe("A hippo in a soap bubble.");
    expect(texts.alt(ids[1]!, "en", "Card 2")).toBe("Card 2");
    expect(texts.alt(ids[2]!, "en", "Card 3")).toBe("Card 3");
    expect(texts.alt("default-1-cccccccccccc", "en", "Card 4")).toBe("Card 4");
    expect(texts.alt("odd", "en", "Card 5")).toBe("Card 5");
  });

  it("loads each language on its own and answers in the asked one", async () => {
    const texts = new CardTexts(async (_slug, lang) => (lang === "it" ? italian : deck));
    texts.want(["default-1-0123456789ab"], "it");
    await flush();
    expect(texts.alt("default-1-0123456789ab", "it", "Carta 1")).toBe("Un ippopotamo in una bolla.");
    expect(texts.alt("default-1-0123456789ab", "en", "Card 1")).toBe("Card 1");
    expect(texts.card("default-1-0123456789ab", "it")?.title).toBe("Protetto");
    texts.forget("default-1");
    expect(texts.alt("default-1-0123456789ab", "it", "Carta 1")).toBe("Carta 1");
  });

  it("keeps the fallback when the deck cannot be loaded, and asks again later", async () => {
    let calls = 0;
    const texts = new CardTexts(async () => {
      calls++;
      throw new Error("404");
    }, 0);
    texts.want(["gone-0123456789ab"], "en");
    await flush();
    expect(texts.alt("gone-0123456789ab", "en", "Card 1")).toBe("Card 1");
    await flush();
    texts.want(["gone-0123456789ab"], "en");
    await flush();
    expect(calls).toBe(2);
  });
});
