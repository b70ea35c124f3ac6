import { useState } from "preact/hooks";
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
  /** The host's own uploads (`mine`): rename and delete. */
  onRename?: (slug: string, name: string) => void;
  onDelete?: (slug: string) => void;
}

/** Rename or delete a deck the host uploaded. */
function MyDeckTools({ deck, onRename, onDelete }: { deck: DeckInfo; onRename: (slug: string, name: string) => void; onDelete: (slug: string) => void }) {
  const { t } = useI18n();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(deck.name);
  if (editing) {
    const save = (e: Event) => {
      e.preventDefault();
      if (name.trim()) onRename(deck.slug, name.trim());
      setEditing(false);
    };
    return (
      <form class="deck-tools" onSubmit={save}>
        <label class="field">
          <span>{t("decks.newName")}</span>
          <input value={name} maxLength={60} onInput={(e) => setName(e.currentTarget.value)} data-testid="deck-rename-input" />
        </label>
        <button type="submit" class="btn btn-small" data-testid="deck-rename-save">{t("decks.saveName")}</button>
      </form>
    );
  }
  const remove = () => {
    if (window.confirm(t("decks.deleteConfirm", { name: deck.name }))) onDelete(deck.slug);
  };
  return (
    <span class="deck-tools">
      <button type="button" class="btn btn-small" onClick={() => setEditing(true)} data-testid="deck-rename">{t("decks.rename")}</button>
      <button type="button" class="btn btn-small" onClick={remove} data-testid="deck-delete">{t("decks.delete")}</button>
    </span>
  );
}

/** Decks with a few cards each to preview, a checkbox per deck, and the count dealt from. */
export function DeckPicker({ decks, chosen, onChange, onRename, onDelete }: Props) {
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
              {d.mine && onChange && onRename && onDelete ? <MyDeckTools deck={d} onRename={onRename} onDelete={onDelete} /> : null}
            </li>
          );
        })}
      </ul>
      <p class="deck-total" data-testid="deck-total" aria-live="polite">{t("decks.total", { count: total })}</p>
    </fieldset>
  );
}
