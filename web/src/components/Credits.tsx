import { useLayoutEffect, useRef } from "preact/hooks";
import { useI18n } from "../i18n/context";
import { useDeckWords } from "../net/cardText";
import { cardUrl } from "./Card";

/** Where each picture of a deck comes from: artist and book per card, from the zoom view. */
export function DeckCredits({ slug, onClose }: { slug: string; onClose: () => void }) {
  const { t } = useI18n();
  const deck = useDeckWords(slug);
  const closeRef = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => { if (e.key === "Escape") { e.stopPropagation(); onClose(); } };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, []);
  const credited = deck?.cards.filter((c) => c.credits) ?? [];
  return (
    <div class="credits" role="dialog" aria-modal="true" aria-labelledby="credits-title" data-testid="credits">
      <div class="credits-head">
        <h2 id="credits-title">{t("credits.title")}</h2>
        <button type="button" class="btn" ref={closeRef} onClick={onClose}>{t("game.close")}</button>
      </div>
      {deck === null ? <p class="muted">{t("conn.connecting")}</p> : null}
      <ul class="credits-list">
        {credited.map((c) => (
          <li key={c.id} data-testid="credit">
            <img src={cardUrl(c.id)} alt="" loading="lazy" width={48} height={72} />
            <span>
              <strong>{c.title ?? ""}</strong>
              <span class="credit-line">{creditLine(c.credits!)}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function creditLine(c: { artist: string; work: string; published?: string | null }): string {
  const book = c.work ? ` — ${c.work}` : "";
  return `${c.artist}${book}${c.published ? ` (${c.published})` : ""}`;
}
