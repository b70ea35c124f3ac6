/** The dark line round every rabbit. A seat colour is only ever drawn as a rabbit's body inside
 * it, never as a bare stripe or border: the line gives the rabbit its contrast with every light
 * surface it stands on (the board game's white, yellow and pink rabbits could have none), and a
 * seat colour stands at least 3:1 apart from it, so a rabbit is never a dark blob without a face
 * (web/tests/colours.test.ts computes both from this table and the style sheets). */
export const RABBIT_OUTLINE = "#2b2140";

/** Rabbit colours by the protocol's names. */
export const RABBIT_HEX: Record<string, string> = {
  red: "#e04b3f",
  orange: "#ef8b2c",
  yellow: "#f2c230",
  green: "#3f9b4f",
  blue: "#3b7dd8",
  purple: "#8e5cc2",
  pink: "#ec86b6",
  white: "#f7f3ea",
};

/** The protocol has eight colours and a table up to twelve seats (Odyssey): a seat whose colour an
 * earlier seat already holds gets the next of these, in seat order, so every client paints the
 * same twelve rabbits. Teal, light brown, lime and grey: apart from the eight and from each other
 * in lightness too, not only in hue (the common colour blindnesses), and none dark (a navy or
 * dark brown body was lost against the outline). */
export const EXTRA_HEX: readonly string[] = ["#17a2a8", "#a86f3c", "#9fc93c", "#9aa0a6"];

export const rabbitHex = (colour: string | undefined): string => RABBIT_HEX[colour ?? ""] ?? "#999";

interface ColouredSeat {
  id: string;
  colour?: string | null;
}

/** Each seat's rabbit colour, distinct for up to twelve seats (see EXTRA_HEX). */
export function seatColours(seats: readonly ColouredSeat[]): Map<string, string> {
  const held = new Set<string>();
  const out = new Map<string, string>();
  let extra = 0;
  for (const s of seats) {
    const c = s.colour ?? "";
    if (c in RABBIT_HEX && !held.has(c)) {
      held.add(c);
      out.set(s.id, RABBIT_HEX[c]!);
    } else {
      out.set(s.id, EXTRA_HEX[extra % EXTRA_HEX.length]!);
      extra += 1;
    }
  }
  return out;
}

/** One seat's rabbit colour at this table. */
export function seatHex(room: { seats: readonly ColouredSeat[] } | null | undefined, id: string): string {
  return seatColours(room?.seats ?? []).get(id) ?? "#999";
}
