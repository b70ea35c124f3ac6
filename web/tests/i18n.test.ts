import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES, format, pickLanguage, pluralCategories, translate, MISSING, type Lang } from "../src/i18n";

const dir = resolve(__dirname, "../src/i18n");
const load = (lang: string) => JSON.parse(readFileSync(resolve(dir, `${lang}.json`), "utf8")) as Record<string, string>;
const en = load("en");
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
/** The counted strings of a file: `name` for its keys `name#one`, `name#other`… */
const counted = (m: Record<string, string>) => [...new Set(Object.keys(m).filter((k) => k.includes("#")).map((k) => k.split("#")[0]!))];

describe("language files", () => {
  it("there is one file per language and every language is listed", () => {
    const files = readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => f.replace(".json", "")).sort();
    expect(files).toEqual([...LANGUAGES].sort());
  });

  for (const lang of LANGUAGES) {
    it(`${lang} has exactly the keys of en.json, none empty, same placeholders`, () => {
      const m = load(lang);
      expect(Object.keys(m).filter((k) => !k.includes("#")).sort()).toEqual(Object.keys(en).filter((k) => !k.includes("#")).sort());
      expect(counted(m).sort()).toEqual(counted(en).sort());
      for (const [k, v] of Object.entries(m)) {
        expect(v.trim(), `${lang}:${k}`).not.toBe("");
        if (k.includes("#")) continue;
        expect(placeholders(v), `${lang}:${k}`).toEqual(placeholders(en[k]!));
      }
    });

    it(`${lang} gives every counted string the plural forms its CLDR rules need`, () => {
      const m = load(lang);
      const needed = pluralCategories(lang);
      expect(needed).toContain("one");
      expect(needed).toContain("other");
      for (const base of counted(en)) {
        const forms = Object.keys(m).filter((k) => k.startsWith(`${base}#`)).map((k) => k.slice(base.length + 1));
        expect(forms.sort(), `${lang}:${base}`).toEqual([...needed].sort());
        const all = placeholders(en[`${base}#other`]!);
        expect(placeholders(m[`${base}#other`]!), `${lang}:${base}#other`).toEqual(all);
        for (const form of forms) {
          for (const name of placeholders(m[`${base}#${form}`]!)) expect(all, `${lang}:${base}#${form}`).toContain(name);
        }
      }
    });
  }

  it("French puts a no-break space (U+00A0 or the narrow U+202F) before : ; ! ?", () => {
    const fr = load("fr");
    const loose = Object.entries(fr).filter(([, v]) => / [:;!?]/.test(v));
    expect(loose).toEqual([]);
    expect(fr["turn.yourVote"]).toMatch(/\u202f\?/);
  });

  it("Polish needs four plural forms, the other languages two", () => {
    expect(pluralCategories("pl")).toEqual(["one", "few", "many", "other"]);
    for (const lang of ["en", "it", "es", "pt", "fr"] as const) expect(pluralCategories(lang)).toEqual(["one", "other"]);
  });

  it("every key the code uses exists in en.json", () => {
    const src = resolve(__dirname, "../src");
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) { if (e.name !== "generated") walk(resolve(d, e.name)); }
        else if (/\.tsx?$/.test(e.name)) files.push(resolve(d, e.name));
      }
    };
    walk(src);
    const used = new Set<string>();
    for (const f of files) for (const m of readFileSync(f, "utf8").matchAll(/\bt\("([a-z][\w.]*[\w])"/g)) used.add(m[1]!);
    const missing = [...used].filter((k) => !(k in en) && !(`${k}#other` in en));
    expect(missing).toEqual([]);
  });
});

describe("translate", () => {
  it("fills placeholders and marks missing keys", () => {
    expect(format("Room {code}", { code: "AB" })).toBe("Room AB");
    expect(translate({ a: "x {n}" }, "a", { n: 2 })).toBe("x 2");
    expect(translate({}, "nope")).toContain(MISSING);
  });

  it("picks the saved language, then the browser's, then English", () => {
    expect(pickLanguage(["pl-PL", "en"], null)).toBe("pl");
    expect(pickLanguage(["de-DE", "pt-BR"], null)).toBe("pt");
    expect(pickLanguage(["de"], null)).toBe("en");
    expect(pickLanguage(["pl"], "fr")).toBe("fr");
  });
});

describe("plural forms", () => {
  const messages = Object.fromEntries(LANGUAGES.map((l) => [l, load(l)])) as Record<Lang, Record<string, string>>;
  const counts = [0, 1, 2, 5, 22];
  const say = (lang: Lang, key: string, count: number, params: Record<string, string | number> = {}) =>
    translate(messages[lang], key, { ...params, count }, lang);

  it("every counted string in every language reads for 0, 1, 2, 5 and 22", () => {
    for (const lang of LANGUAGES) {
      for (const base of counted(en)) {
        for (const n of counts) {
          const text = say(lang, base, n, { total: 84, rejected: 3, name: "Ann", lap: 2 });
          expect(text, `${lang}:${base}:${n}`).not.toContain(MISSING);
          expect(text, `${lang}:${base}:${n}`).not.toMatch(/\{\w+\}/);
        }
      }
    }
  });

  // What a native reader expects for 0, 1, 2, 5, 22 points. Portuguese is European: "0 pontos".
  const points: Record<Lang, string[]> = {
    en: ["Ann: 0 points", "Ann: 1 point", "Ann: 2 points", "Ann: 5 points", "Ann: 22 points"],
    it: ["Ann: 0 punti", "Ann: 1 punto", "Ann: 2 punti", "Ann: 5 punti", "Ann: 22 punti"],
    pl: ["Ann: 0 punktów", "Ann: 1 punkt", "Ann: 2 punkty", "Ann: 5 punktów", "Ann: 22 punkty"],
    es: ["Ann: 0 puntos", "Ann: 1 punto", "Ann: 2 puntos", "Ann: 5 puntos", "Ann: 22 puntos"],
    pt: ["Ann: 0 pontos", "Ann: 1 ponto", "Ann: 2 pontos", "Ann: 5 pontos", "Ann: 22 pontos"],
    fr: ["Ann\u00a0: 0 point", "Ann\u00a0: 1 point", "Ann\u00a0: 2 points", "Ann\u00a0: 5 points", "Ann\u00a0: 22 points"],
  };
  for (const lang of LANGUAGES) {
    it(`${lang}: a score on the track agrees with its number`, () => {
      expect(counts.map((n) => say(lang, "track.score", n, { name: "Ann" }))).toEqual(points[lang]);
    });
  }

  const unread: Record<Lang, string[]> = {
    en: ["0 new messages", "1 new message", "2 new messages", "5 new messages", "22 new messages"],
    it: ["0 nuovi messaggi", "1 nuovo messaggio", "2 nuovi messaggi", "5 nuovi messaggi", "22 nuovi messaggi"],
    pl: ["0 nowych wiadomości", "1 nowa wiadomość", "2 nowe wiadomości", "5 nowych wiadomości", "22 nowe wiadomości"],
    es: ["0 mensajes nuevos", "1 mensaje nuevo", "2 mensajes nuevos", "5 mensajes nuevos", "22 mensajes nuevos"],
    pt: ["0 mensagens novas", "1 mensagem nova", "2 mensagens novas", "5 mensagens novas", "22 mensagens novas"],
    fr: ["0 nouveau message", "1 nouveau message", "2 nouveaux messages", "5 nouveaux messages", "22 nouveaux messages"],
  };
  for (const lang of LANGUAGES) {
    it(`${lang}: the unread-messages button agrees with its number`, () => {
      counts.forEach((n, i) => expect(say(lang, "talk.showNew", n)).toContain(`(${unread[lang][i]})`));
    });
  }

  const cards: Record<Lang, string[]> = {
    en: ["0 cards", "1 card", "2 cards", "5 cards", "22 cards"],
    it: ["0 carte", "1 carta", "2 carte", "5 carte", "22 carte"],
    pl: ["0 kart", "1 karta", "2 karty", "5 kart", "22 karty"],
    es: ["0 cartas", "1 carta", "2 cartas", "5 cartas", "22 cartas"],
    pt: ["0 cartas", "1 carta", "2 cartas", "5 cartas", "22 cartas"],
    fr: ["0 carte", "1 carte", "2 cartes", "5 cartes", "22 cartes"],
  };
  for (const lang of LANGUAGES) {
    it(`${lang}: a deck's card count agrees with its number`, () => {
      expect(counts.map((n) => say(lang, "decks.count", n))).toEqual(cards[lang]);
    });
  }

  it("Polish rounds and cards take one, few and many forms", () => {
    expect(counts.map((n) => say("pl", "summary.maxRounds", n))).toEqual(
      ["Najwyżej 0 rund.", "Najwyżej 1 runda.", "Najwyżej 2 rundy.", "Najwyżej 5 rund.", "Najwyżej 22 rundy."],
    );
    expect([12, 14, 112, 101].map((n) => say("pl", "decks.count", n))).toEqual(["12 kart", "14 kart", "112 kart", "101 kart"]);
  });

  it("a missing form falls back to #other, and a plain key still answers a count", () => {
    expect(translate({ "x#other": "{count} things" }, "x", { count: 1 }, "pl")).toBe("1 things");
    expect(translate({ x: "things: {count}" }, "x", { count: 3 }, "it")).toBe("things: 3");
  });
});
