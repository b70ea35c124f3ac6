import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES, format, pickLanguage, translate, MISSING } from "../src/i18n";

const dir = resolve(__dirname, "../src/i18n");
const load = (lang: string) => JSON.parse(readFileSync(resolve(dir, `${lang}.json`), "utf8")) as Record<string, string>;
const en = load("en");
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("language files", () => {
  it("there is one file per language and every language is listed", () => {
    const files = readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => f.replace(".json", "")).sort();
    expect(files).toEqual([...LANGUAGES].sort());
  });

  for (const lang of LANGUAGES) {
    it(`${lang} has exactly the keys of en.json, none empty, same placeholders`, () => {
      const m = load(lang);
      expect(Object.keys(m).sort()).toEqual(Object.keys(en).sort());
      for (const [k, v] of Object.entries(m)) {
        expect(v.trim(), `${lang}:${k}`).not.toBe("");
        expect(placeholders(v), `${lang}:${k}`).toEqual(placeholders(en[k]!));
      }
    });
  }

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
    const missing = [...used].filter((k) => !(k in en));
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
