import type { JSX } from "preact";
import type { T } from "../i18n";

export interface CardProps {
  id: string;
  alt: string;
  selected?: boolean;
  disabled?: boolean;
  /** A number badge (table cards). */
  number?: number;
  /** A ribbon on the card (e.g. "Your card"). */
  tag?: string;
  /** byKeyboard: Enter or Space chose it (a click with no pointer); face: the card's button */
  onSelect?: (byKeyboard: boolean, face: HTMLButtonElement) => void;
  onZoom?: () => void;
  onKeyDown?: (e: JSX.TargetedKeyboardEvent<HTMLButtonElement>) => void;
  t: T;
  testid?: string;
  /** Load the picture at once, even while out of sight (a hand hidden under the reveal). */
  eager?: boolean;
  children?: preact.ComponentChildren;
}

export function cardUrl(id: string): string {
  return `/cards/${encodeURIComponent(id)}`;
}

/** One card, 2:3. Selectable cards are buttons; every card can be zoomed. (Keyed parts: when a
 * card becomes choosable its face turns into a new button, and the zoom button stays itself.) */
export function Card(props: CardProps) {
  const { id, alt, selected, disabled, number, tag, onSelect, onZoom, t } = props;
  const cls = ["card", selected ? "is-selected" : "", disabled ? "is-disabled" : "", onSelect ? "is-choosable" : ""].join(" ");
  const face = (
    <>
      <img src={cardUrl(id)} alt={alt} loading={props.eager ? "eager" : "lazy"} decoding="async" draggable={false} />
      {number !== undefined ? <span class="card-number" aria-hidden="true">{number}</span> : null}
      {tag ? <span class="card-tag">{tag}</span> : null}
    </>
  );
  return (
    <div class={cls} data-card={id} data-testid={props.testid}>
      {onSelect ? (
        <button
          key="face"
          type="button"
          class="card-face"
          aria-pressed={selected ? "true" : "false"}
          disabled={disabled}
          onClick={(e) => onSelect(e.detail === 0, e.currentTarget)}
          onKeyDown={props.onKeyDown}
          aria-keyshortcuts={onZoom ? "z" : undefined}
        >
          {number !== undefined ? <span class="sr-only">{t("game.tableCard", { n: number })}: </span> : null}
          {face}
        </button>
      ) : (
        <div key="face" class="card-face" tabIndex={onZoom ? 0 : undefined} role={onZoom ? "button" : undefined} onKeyDown={(e) => { if (e.key === "Enter" && onZoom) onZoom(); }} onDblClick={onZoom}>
          {face}
        </div>
      )}
      {onZoom ? (
        <button key="zoom" type="button" class="card-zoom" tabIndex={-1} onClick={onZoom} aria-label={number !== undefined ? `${t("game.zoom")} ${number}` : t("game.zoom")} title={t("game.zoom")}>
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><circle cx="10" cy="10" r="6" fill="none" stroke="currentColor" stroke-width="2.4" /><path d="M15 15l5 5" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" /></svg>
        </button>
      ) : null}
      {props.children}
    </div>
  );
}
