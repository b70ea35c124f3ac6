import { useI18n } from "../i18n/context";
import type { DeckInfo } from "../protocol";
import { cardUrl } from "./Card";

/** The decks a room deals from when it chooses none: the server's defaults. */
export function defaultDecks(decks: readonly DeckInfo[]): string[] {
  return decks.filter((d) => d.default).map((d) => d.slug);
}

/** The chosen decks as the server reads them: an empty choice means the defaults. */
export function chosenOrDefault(chosen: readonly string[], decks: readonly DeckInfo[]): string[] {
  return chosen.length > 0 ? [...chosen] : defaultDecks(decks);
}

/** Cards without a description among the chosen decks (what computer players cannot read). */
export function undescribed(chosen: readonly string[], decks: readonly DeckInfo[]): number {
  return decks.filter((d) => chosen.includes(d.slug)).reduce((n, d) => n + d.card_count - d.described, 0);
}

interface Props {
  decks: readonly DeckInfo[];
  chosen: readonly string[];
  /** Absent: shown, not changed (a player who is not the host). */
  onChange?: (slugs: string[]) => void;
}

/** Decks with a few cards each to preview, a checkbox per deck, and the count dealt from. */
export function DeckPicker({ decks, chosen, onChange }: Props) {
  const { t } = useI18n();
  const picked = chosenOrDefault(chosen, decks);
  const total = decks.filter((d) => picked.includes(d.slug)).reduce((n, d) => n + d.card_count, 0);
  const shown = onChange ? decks : decks.filter((d) => picked.includes(d.slug));
  function toggle(slug: string, on: boolean) {
    const next = on ? [...picked, slug] : picked.filter((s) => s !== slug);
    if (next.length > 0) onChange?.(decks.map((d) => d.slug).filter((s) => next.includes(s)));
  }
  return (
    <fieldset class="decks" data-testid="decks">
      <legend>{t("decks.title")}</legend>
      <ul class="deck-list">
        {shown.map((d) => {
          const on = picked.includes(d.slug);
          return (
            <li key={d.slug} class={`deck${on ? " is-on" : ""}`} data-testid="deck" data-slug={d.slug}>
              <label>
                {onChange ? (
                  <input type="checkbox" checked={on} disabled={on && picked.length === 1} onChange={(e) => toggle(d.slug, e.currentTarget.checked)} data-testid="deck-check" />
                ) : null}
                <span class="deck-preview" aria-hidden="true">
                  {d.preview.map((id) => <img key={id} src={cardUrl(id)} alt="" loading="lazy" decoding="async" width={40} height={60} />)}
                </span>
                <span class="deck-text">
                  <strong class="deck-name">
                    {d.name}
                    {d.default && d.kind === "illustrated" ? <span class="deck-badge" data-testid="deck-recommended">{t("decks.recommended")}</span> : null}
                  </strong>
                  <span class="deck-meta">{t("decks.count", { count: d.card_count })} · {t(`decks.kind.${d.kind}`)}</span>
                  {d.described < d.card_count ? <span class="deck-warn">{t("decks.undescribed", { n: d.card_count - d.described })}</span> : null}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      <p class="deck-total" data-testid="deck-total" aria-live="polite">{t("decks.total", { count: total })}</p>
    </fieldset>
  );
}
