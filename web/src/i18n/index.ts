import en from "./en.json";

/** One JSON file per language; add a file here and to LANGUAGES to add a language. */
export type Messages = Record<string, string>;
export const LANGUAGES = ["en", "it", "pl", "es", "pt", "fr"] as const;
export type Lang = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Lang, string> = {
  en: "English",
  it: "Italiano",
  pl: "Polski",
  es: "Español",
  pt: "Português",
  fr: "Français",
};

const loaders: Record<Lang, () => Promise<Messages>> = {
  en: async () => en,
  it: () => import("./it.json").then((m) => m.default),
  pl: () => import("./pl.json").then((m) => m.default),
  es: () => import("./es.json").then((m) => m.default),
  pt: () => import("./pt.json").then((m) => m.default),
  fr: () => import("./fr.json").then((m) => m.default),
};

const STORAGE_KEY = "dixit.lang";
/** Shown instead of a string whose key is missing; the browser tests look for it. */
export const MISSING = "⟦missing:";

export function pickLanguage(preferred: readonly string[], saved: string | null): Lang {
  const all = saved ? [saved, ...preferred] : [...preferred];
  for (const tag of all) {
    const base = tag.toLowerCase().split("-")[0] as Lang;
    if ((LANGUAGES as readonly string[]).includes(base)) return base;
  }
  return "en";
}

export type Params = Record<string, string | number>;

/**
 * The CLDR locale whose plural rules each language follows. Portuguese is the European one:
 * "0 pontos" (Brazilian rules would say "0 ponto").
 */
const PLURAL_LOCALE: Record<Lang, string> = { en: "en", it: "it", pl: "pl", es: "es", pt: "pt-PT", fr: "fr" };
const pluralRules = new Map<Lang, Intl.PluralRules>();

/** The CLDR plural category of `count` in `lang`: "one", "few", "many" or "other". */
export function pluralCategory(lang: Lang, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(lang);
  if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(PLURAL_LOCALE[lang])));
  return rules.select(count);
}

/**
 * The plural forms a language file must give for a counted string (`key#one`, `key#other`…):
 * every category a whole count a game can show (0 to 1000) selects, and "other", the fallback.
 */
export function pluralCategories(lang: Lang): Intl.LDMLPluralRule[] {
  const seen = new Set<Intl.LDMLPluralRule>(["other"]);
  for (let n = 0; n <= 1000; n++) seen.add(pluralCategory(lang, n));
  const order: Intl.LDMLPluralRule[] = ["zero", "one", "two", "few", "many", "other"];
  return order.filter((c) => seen.has(c));
}

export function format(template: string, params?: Params): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/**
 * A string in the player's language. With a numeric `count` the string is counted: its form is
 * `key#<category>` for the count's CLDR category in `lang`, falling back to `key#other`.
 */
export function translate(messages: Messages, key: string, params?: Params, lang: Lang = "en"): string {
  const count = params?.count;
  const template =
    typeof count === "number"
      ? (messages[`${key}#${pluralCategory(lang, count)}`] ?? messages[`${key}#other`] ?? messages[key])
      : messages[key];
  if (template === undefined) return `${MISSING}${key}⟧`;
  return format(template, params);
}

export type T = (key: string, params?: Params) => string;

export function savedLanguage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function saveLanguage(lang: Lang): void {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    /* private mode: the choice lasts this visit */
  }
}

export function loadMessages(lang: Lang): Promise<Messages> {
  return loaders[lang]();
}

export const english: Messages = en;
