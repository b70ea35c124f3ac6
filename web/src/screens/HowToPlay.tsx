import { useEffect, useState } from "preact/hooks";
import { cardUrl } from "../components/Card";
import { RabbitIcon } from "../components/Rabbit";
import { TopBar } from "../components/TopBar";
import { useI18n } from "../i18n/context";
import { api } from "../net/api";
import { navigate } from "../routes";
import { useHints } from "../state/hints";

/** A few cards of the default deck, for the pictures (none while they load or if they cannot). */
function useDefaultCards(lang: string, n: number): { id: string; alt: string }[] {
  const [cards, setCards] = useState<{ id: string; alt: string }[]>([]);
  useEffect(() => {
    let live = true;
    api.decks()
      .then((list) => {
        const deck = list.decks.find((d) => d.default) ?? list.decks[0];
        return deck ? api.deckCards(deck.slug, lang) : null;
      })
      .then((deck) => {
        if (live && deck) setCards(deck.cards.slice(0, n).map((c) => ({ id: c.id, alt: c.alt ?? c.title ?? "" })));
      })
      .catch(() => undefined);
    return () => { live = false; };
  }, [lang, n]);
  return cards;
}

const COLOURS = ["#e04b3f", "#3b7dd8", "#3f9b4f", "#f2c230", "#8e5cc2"];

/** One scoring case drawn: the storyteller's rabbit, the others', and what each scores. */
function ScoreCase({ found, teller, others, label }: { found: boolean[]; teller: number; others: number[]; label: string }) {
  return (
    <figure class="score-case">
      <div class="score-rabbits" aria-hidden="true">
        <span class="score-rabbit score-rabbit--teller"><RabbitIcon color={COLOURS[0]!} size={34} /><b>+{teller}</b><small>✎</small></span>
        {found.map((f, i) => (
          <span key={i} class={`score-rabbit${f ? " is-found" : ""}`}><RabbitIcon color={COLOURS[i + 1]!} size={34} /><b>+{others[i]}</b><small>{f ? "✓" : "✗"}</small></span>
        ))}
      </div>
      <figcaption>{label}</figcaption>
    </figure>
  );
}

/** How to play: a round in four steps with real cards, the points drawn, how a game ends, and
 * the switch for the tips shown during a game. Our own words; the rules are docs/rules.md. */
export function HowToPlay() {
  const { t, lang } = useI18n();
  const cards = useDefaultCards(lang, 5);
  const [hints, setHints] = useHints();
  const pic = (i: number, extra?: preact.ComponentChildren) => {
    const c = cards[i];
    return (
      <span class="howto-card">
        {c ? <img src={cardUrl(c.id)} alt={c.alt} loading="lazy" /> : <span class="card-back" />}
        {extra}
      </span>
    );
  };
  useEffect(() => { document.title = `${t("help.title")} — ${t("app.title")}`; }, [t]);
  return (
    <div class="page page--help">
      <TopBar />
      <main class="howto" data-testid="how-to-play">
        <h1>{t("help.title")}</h1>
        <p class="howto-intro">{t("help.intro")}</p>
        <ol class="howto-steps">
          <li class="panel">
            <h2>{t("help.step1.title")}</h2>
            <div class="howto-pics">{pic(0, <span class="howto-bubble">{t("help.example")}</span>)}</div>
            <p>{t("help.step1")}</p>
          </li>
          <li class="panel">
            <h2>{t("help.step2.title")}</h2>
            <div class="howto-pics">{pic(1)}{pic(2)}</div>
            <p>{t("help.step2")}</p>
          </li>
          <li class="panel">
            <h2>{t("help.step3.title")}</h2>
            <div class="howto-pics howto-pics--table">
              {[0, 1, 2, 3].map((i) => pic(i, <span class="card-number" aria-hidden="true">{i + 1}</span>))}
            </div>
            <p>{t("help.step3")}</p>
          </li>
          <li class="panel" data-testid="how-to-score">
            <h2>{t("help.step4.title")}</h2>
            <ScoreCase found={[true, false, false]} teller={3} others={[3, 0, 0]} label={t("help.score.some")} />
            <ScoreCase found={[true, true, true]} teller={0} others={[2, 2, 2]} label={t("help.score.all")} />
            <p>{t("help.score.votes")}</p>
            <p class="howto-aim"><strong>{t("help.aim")}</strong></p>
          </li>
        </ol>
        <section class="panel">
          <h2>{t("help.end.title")}</h2>
          <p>{t("help.end")}</p>
        </section>
        <label class="check howto-tips">
          <input type="checkbox" checked={hints} onChange={(e) => setHints(e.currentTarget.checked)} data-testid="hints-toggle" />
          <span>{t("help.tips")}</span>
        </label>
        <p><a class="btn" href="/" onClick={(e) => { e.preventDefault(); if (history.length > 1) history.back(); else navigate("/"); }}>{t("help.back")}</a></p>
      </main>
    </div>
  );
}
