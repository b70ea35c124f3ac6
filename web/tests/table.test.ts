import { describe, expect, it } from "vitest";
import { lapOf } from "../src/components/ScoreTrack";
import { chosenOrDefault, undescribed } from "../src/components/DeckPicker";
import { maxBots } from "../src/screens/Home";
import { reasonText } from "../src/screens/Reveal";
import type { DeckInfo } from "../src/protocol";

const t = (key: string, p?: Record<string, string | number>) => (p ? `${key} ${JSON.stringify(p)}` : key);

describe("score track laps", () => {
  it("starts a new lap past 30", () => {
    expect([0, 30, 31, 37, 61, 62].map(lapOf)).toEqual([1, 1, 2, 2, 2, 3]);
  });
});

describe("reveal reasons", () => {
  it("names the lone-finder bonus when a find scores 4", () => {
    expect(reasonText(t, "found_storyteller", 4)).toBe("reason.loneFinder");
    expect(reasonText(t, "storyteller_found_by_some", 4)).toBe("reason.loneFinder");
    expect(reasonText(t, "found_storyteller", 3)).toBe("reason.found_storyteller");
    expect(reasonText(t, "votes_received", 4)).toBe("reason.votes_received");
  });
});

describe("home limits", () => {
  it("caps computer players to the edition's seats less the creator's", () => {
    expect(maxBots("classic", null)).toBe(5);
    expect(maxBots("2021", null)).toBe(7);
    expect(maxBots("2021", 4)).toBe(3);
  });
});

describe("deck choice", () => {
  const deck = (slug: string, count: number, described: number, dflt = false): DeckInfo => ({
    slug, name: slug, card_count: count, described, default: dflt, kind: "generated", licence: null, preview: [], mine: false,
  });
  const decks = [deck("a", 84, 84, true), deck("b", 84, 84), deck("mine", 10, 4)];
  it("an empty choice means the defaults", () => {
    expect(chosenOrDefault([], decks)).toEqual(["a"]);
    expect(chosenOrDefault(["b"], decks)).toEqual(["b"]);
  });
  it("counts the cards computer players cannot read", () => {
    expect(undescribed(["a"], decks)).toBe(0);
    expect(undescribed(["a", "mine"], decks)).toBe(6);
  });
});
