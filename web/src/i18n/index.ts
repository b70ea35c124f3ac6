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

export function format(template: string, params?: Record<string, string | number>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export function translate(
  messages: Messages,
  key: string,
  params?: Record<string, string | number>,
): string {
  const template = messages[key];
  if (template === undefined) return `${MISSING}${key}⟧`;
  return format(template, params);
}

export type T = (key: string, params?: Record<string, string | number>) => string;

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
