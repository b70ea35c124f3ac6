import { encode } from "uqr";

/** A QR code of `text`, drawn as one SVG path (no innerHTML). */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { data, size } = encode(text, { ecc: "M", border: 2 });
  let d = "";
  data.forEach((row, y) => row.forEach((on, x) => { if (on) d += `M${x} ${y}h1v1h-1z`; }));
  return (
    <svg class="qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shape-rendering="crispEdges" data-testid="qr">
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#2b2140" />
    </svg>
  );
}
