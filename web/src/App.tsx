import { useEffect, useMemo, useState } from "preact/hooks";
import { english, loadMessages, pickLanguage, saveLanguage, savedLanguage, translate, type Lang, type Messages } from "./i18n";
import { I18nContext } from "./i18n/context";
import { Home } from "./screens/Home";
import { HowToPlay } from "./screens/HowToPlay";
import { NotFound } from "./screens/NotFound";
import { Room } from "./screens/Room";
import { parseRoute, type Route } from "./routes";

export function App() {
  const [lang, setLangState] = useState<Lang>(() => pickLanguage(navigator.languages ?? [navigator.language], savedLanguage()));
  // English is in the bundle; another language is fetched first (no flash of English text).
  const [messages, setMessages] = useState<Messages | null>(lang === "en" ? english : null);
  const [route, setRoute] = useState<Route>(() => parseRoute(location.pathname));

  useEffect(() => {
    let live = true;
    loadMessages(lang).then((m) => { if (live) setMessages(m); });
    document.documentElement.lang = lang;
    return () => { live = false; };
  }, [lang]);

  useEffect(() => {
    const onPop = () => setRoute(parseRoute(location.pathname));
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);

  const i18n = useMemo(() => ({
    lang,
    t: (key: string, params?: Record<string, string | number>) => translate(messages ?? english, key, params, messages ? lang : "en"),
    setLang: (l: Lang) => { saveLanguage(l); setLangState(l); },
  }), [lang, messages]);

  useEffect(() => { document.title = i18n.t("app.title"); }, [i18n]);

  if (!messages) return null;
  return (
    <I18nContext.Provider value={i18n}>
      {route.page === "home" ? <Home /> : route.page === "room" ? <Room key={`${route.code}${route.tv}`} code={route.code} tv={route.tv} /> : route.page === "rules" ? <HowToPlay /> : <NotFound />}
    </I18nContext.Provider>
  );
}
