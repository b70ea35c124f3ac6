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

export const rabbitHex = (colour: string | undefined): string => RABBIT_HEX[colour ?? ""] ?? "#999";
