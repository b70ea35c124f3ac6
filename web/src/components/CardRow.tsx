import type { JSX } from "preact";
import { Card } from "./Card";
import type { T } from "../i18n";
import { reducedMotion } from "../state/turnMoment";

export interface RowCard {
  id: string;
  alt: string;
  number?: number;
  tag?: string;
  selected?: boolean;
  /** Can be chosen now (from the server's legal actions). */
  choosable?: boolean;
  extra?: preact.ComponentChildren;
}

interface Props {
  cards: RowCard[];
  label: string;
  kind: "hand" | "table";
  onSelect?: (id: string, byKeyboard: boolean) => void;
  onZoom: (index: number) => void;
  t: T;
}

/** Arrow keys move between cards; Enter/Space selects (native button); "z" zooms. */
function onCardKey(e: JSX.TargetedKeyboardEvent<HTMLButtonElement>, onZoom: () => void) {
  const key = e.key;
  if (key === "z" || key === "Z") {
    e.preventDefault();
    onZoom();
    return;
  }
  if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(key)) return;
  const row = e.currentTarget.closest(".card-row");
  if (!row) return;
  // A card that cannot be chosen now (one's own in the vote) is a disabled button, which cannot
  // take the focus: the keys step over it to the next card that can.
  const buttons = Array.from(row.querySelectorAll<HTMLButtonElement>(".card-face")).filter((b) => !b.disabled || b === e.currentTarget);
  const i = buttons.indexOf(e.currentTarget);
  let j = i;
  if (key === "ArrowLeft" || key === "ArrowUp") j = Math.max(0, i - 1);
  if (key === "ArrowRight" || key === "ArrowDown") j = Math.min(buttons.length - 1, i + 1);
  if (key === "Home") j = 0;
  if (key === "End") j = buttons.length - 1;
  e.preventDefault();
  buttons[j]?.focus();
  buttons[j]?.scrollIntoView({ block: "nearest", inline: "nearest", behavior: "smooth" });
}

/** A card chosen in a row that scrolls sideways (the hand on a phone) comes wholly into view:
 * the row turns until the card sits in its middle (where the row snaps anyway). */
export function showWhole(face: Element): void {
  const row = face.closest<HTMLElement>(".card-row");
  const card = face.closest(".card") ?? face;
  if (!row || row.scrollWidth <= row.clientWidth) return;
  const r = row.getBoundingClientRect();
  const c = card.getBoundingClientRect();
  if (c.left >= r.left && c.right <= r.right) return;
  const left = row.scrollLeft + (c.left + c.width / 2) - (r.left + r.width / 2);
  row.scrollTo({ left, behavior: reducedMotion() ? "auto" : "smooth" });
}

export function CardRow({ cards, label, kind, onSelect, onZoom, t }: Props) {
  return (
    <ul class={`card-row card-row--${kind}`} aria-label={label} data-testid={kind}>
      {cards.map((c, i) => (
        <li key={c.id}>
          <Card
            id={c.id}
            alt={c.alt}
            number={c.number}
            tag={c.tag}
            selected={c.selected}
            disabled={onSelect ? !c.choosable : undefined}
            onSelect={onSelect ? (byKeyboard, face) => { if (!c.selected) showWhole(face); onSelect(c.id, byKeyboard); } : undefined}
            onZoom={() => onZoom(i)}
            onKeyDown={(e) => onCardKey(e, () => onZoom(i))}
            t={t}
            testid={`${kind}-card`}
            eager={kind === "hand"}
          >
            {c.extra}
          </Card>
        </li>
      ))}
    </ul>
  );
}
