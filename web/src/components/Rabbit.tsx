import { RABBIT_OUTLINE } from "./colors";

/** A rabbit token, drawn by hand as SVG. `color` fills the body; the outline stays dark. */
export function RabbitShape({ color }: { color: string }) {
  return (
    <g class="rabbit-shape">
      <ellipse cx="-4" cy="-13" rx="2.6" ry="8" transform="rotate(-12 -4 -13)" fill={color} stroke={RABBIT_OUTLINE} stroke-width="1.2" />
      <ellipse cx="3" cy="-13.5" rx="2.6" ry="8" transform="rotate(14 3 -13.5)" fill={color} stroke={RABBIT_OUTLINE} stroke-width="1.2" />
      <ellipse cx="0" cy="4" rx="8.5" ry="7" fill={color} stroke={RABBIT_OUTLINE} stroke-width="1.2" />
      <circle cx="0" cy="-4" r="5.6" fill={color} stroke={RABBIT_OUTLINE} stroke-width="1.2" />
      <circle cx="-2" cy="-5" r="0.9" fill={RABBIT_OUTLINE} />
      <circle cx="2" cy="-5" r="0.9" fill={RABBIT_OUTLINE} />
      <circle cx="-8" cy="7" r="2.4" fill="#fffaf0" stroke={RABBIT_OUTLINE} stroke-width="1" />
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
