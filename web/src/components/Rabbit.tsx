/** A rabbit token, drawn by hand as SVG. `color` fills the body; the outline stays dark. */
export function RabbitShape({ color }: { color: string }) {
  return (
    <g class="rabbit-shape">
      <ellipse cx="-4" cy="-13" rx="2.6" ry="8" transform="rotate(-12 -4 -13)" fill={color} stroke="#2b2140" stroke-width="1.2" />
      <ellipse cx="3" cy="-13.5" rx="2.6" ry="8" transform="rotate(14 3 -13.5)" fill={color} stroke="#2b2140" stroke-width="1.2" />
      <ellipse cx="0" cy="4" rx="8.5" ry="7" fill={color} stroke="#2b2140" stroke-width="1.2" />
      <circle cx="0" cy="-4" r="5.6" fill={color} stroke="#2b2140" stroke-width="1.2" />
      <circle cx="-2" cy="-5" r="0.9" fill="#2b2140" />
      <circle cx="2" cy="-5" r="0.9" fill="#2b2140" />
      <circle cx="-8" cy="7" r="2.4" fill="#fffaf0" stroke="#2b2140" stroke-width="1" />
    </g>
  );
}

export function RabbitIcon({ color, size = 22, title }: { color: string; size?: number; title?: string }) {
  return (
    <svg class="rabbit-icon" width={size} height={size} viewBox="-12 -23 24 36" role={title ? "img" : undefined} aria-hidden={title ? undefined : true}>
      {title ? <title>{title}</title> : null}
      <RabbitShape color={color} />
    </svg>
  );
}

const COLORS = ["#e04b3f", "#3b7dd8", "#3f9b4f", "#f2c230", "#ec86b6", "#8e5cc2", "#ef8b2c", "#f4f1ea", "#2ba3a0", "#8b5a3c", "#9fb83a", "#5a5f73"];

/** The rabbit colour of a seat: the board game's colours, in seat order. */
export function seatColor(seat: number): string {
  return COLORS[((seat % COLORS.length) + COLORS.length) % COLORS.length]!;
}
