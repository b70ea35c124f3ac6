import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { english, translate, type Lang, type T } from "./index";

export interface I18n {
  lang: Lang;
  t: T;
  setLang: (lang: Lang) => void;
}

export const I18nContext = createContext<I18n>({
  lang: "en",
  t: (key, params) => translate(english, key, params),
  setLang: () => undefined,
});

export const useI18n = () => useContext(I18nContext);
