import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { EXTRA_HEX, RABBIT_HEX, RABBIT_OUTLINE } from "../src/components/colors";

/** WCAG 2 contrast, computed from the colour table and the style sheets as they are, so that a
 * new seat colour or a new surface colour that breaks it fails here. A seat colour is drawn only
 * as a rabbit's body (checked below): the rabbit's outline must stand 3:1 from every surface a
 * rabbit stands on (a non-text mark), the body 3:1 from the outline, and the names written on
 * those surfaces 4.5:1 (text). */

const src = resolve(__dirname, "../src");
const css = ["styles.css", "talk.css"].map((f) => readFileSync(join(src, f), "utf8")).join("\n");

function hexRgb(hex: string): [number, number, number] {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join("") : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance(hex: string): number {
  const [r, g, b] = hexRgb(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** CIELAB distance (ΔE 1976): how far apart two rabbits look. */
function deltaE(a: string, b: string): number {
  const lab = (hex: string) => {
    const [r, g, b2] = hexRgb(hex).map((c) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
    const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b2) / 0.95047);
    const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b2);
    const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b2) / 1.08883);
    return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
  };
  const [p, q] = [lab(a), lab(b)];
  return Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!);
}

const rootVar = (name: string): string => {
  const found = new RegExp(`--${name}:\\s*([^;]+);`).exec(css);
  if (!found) throw new Error(`no --${name} in the style sheets`);
  return found[1]!.trim();
};

/** Every colour a rule's property paints (a gradient's stops too), as #rrggbb. */
function ruleColours(selector: string, property: string): string[] {
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const rule = new RegExp(`(?:^|[}\\n])\\s*${escaped}\\s*\\{([^}]*)\\}`).exec(css);
  if (!rule) throw new Error(`no rule ${selector}`);
  const decl = new RegExp(`(?:^|[;{\\s])${property}:\\s*([^;]+)`).exec(rule[1]!);
  if (!decl) throw new Error(`${selector} sets no ${property}`);
  const value = decl[1]!.replace(/var\(--([\w-]+)\)/g, (_, name: string) => rootVar(name));
  const colours = [
    ...[...value.matchAll(/#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b/g)].map((m) => m[0]),
    ...[...value.matchAll(/rgba?\((\d+),\s*(\d+),\s*(\d+)/g)].map(
      (m) => `#${[m[1], m[2], m[3]].map((n) => Number(n).toString(16).padStart(2, "0")).join("")}`,
    ),
  ];
  if (colours.length === 0) throw new Error(`${selector} ${property}: no colour in ${value}`);
  return colours;
}

/** Where rabbits stand, and whether names are written there too. */
const SURFACES: { where: string; selector: string; property: string; names: boolean }[] = [
  { where: "the page (phone and TV)", selector: "body", property: "background", names: true },
  { where: "panels (the reveal's owners, the lobby)", selector: ".panel", property: "background", names: true },
  { where: "players' list (phone table, TV)", selector: ".players", property: "background", names: true },
  { where: "the storyteller's row", selector: ".player.is-teller", property: "background", names: true },
  { where: "lobby seats", selector: ".seat", property: "background", names: true },
  { where: "colour choice", selector: ".swatch", property: "background", names: false },
  { where: "colour chosen", selector: ".swatch.is-on", property: "background", names: false },
  { where: "reveal voters", selector: ".voter", property: "background", names: true },
  { where: "reveal points", selector: ".points li", property: "background", names: true },
  { where: "final ranking", selector: ".ranking li", property: "background", names: true },
  { where: "final ranking, winner", selector: ".ranking li:first-child", property: "background", names: true },
  { where: "table talk", selector: ".chat-log", property: "background", names: true },
  { where: "table talk, to the team", selector: ".chat-line--team", property: "background", names: true },
  { where: "reactions", selector: ".reaction-chip", property: "background", names: true },
  { where: "score track's grass", selector: ".track", property: "background", names: false },
  { where: "score track's road", selector: ".track-road", property: "stroke", names: false },
  { where: "score track's spaces", selector: ".track-space circle", property: "fill", names: false },
  { where: "score track's fives", selector: ".track-space.is-five circle", property: "fill", names: false },
  { where: "score track's goal", selector: ".track-space.is-goal circle", property: "fill", names: false },
];

const SEATS = [...Object.entries(RABBIT_HEX), ...EXTRA_HEX.map((hex, i) => [`extra ${i + 1}`, hex] as const)];
const NAME_INKS = [rootVar("ink"), rootVar("ink-2")];

describe("seat colours' contrast", () => {
  it("twelve seat colours, all different", () => {
    expect(new Set(SEATS.map(([, hex]) => hex.toLowerCase())).size).toBe(12);
  });

  for (const [name, hex] of SEATS) {
    it(`${name} (${hex}): the body stands 3:1 from the rabbit's outline`, () => {
      expect(contrast(hex, RABBIT_OUTLINE)).toBeGreaterThanOrEqual(3);
    });
  }

  for (const s of SURFACES) {
    for (const bg of ruleColours(s.selector, s.property)) {
      it(`${s.where} (${s.selector} ${bg}): the rabbit's outline 3:1${s.names ? ", names 4.5:1" : ""}`, () => {
        expect(contrast(RABBIT_OUTLINE, bg)).toBeGreaterThanOrEqual(3);
        if (s.names) for (const ink of NAME_INKS) expect(contrast(ink, bg)).toBeGreaterThanOrEqual(4.5);
      });
    }
  }

  it("any two rabbits look apart (CIELAB ΔE ≥ 25)", () => {
    const close = SEATS.flatMap(([a, x], i) => SEATS.slice(i + 1).filter(([, y]) => deltaE(x, y) < 25).map(([b]) => `${a}~${b}`));
    expect(close).toEqual([]);
  });

  it("a seat colour is only ever a rabbit's body (never a bare border, stripe or text colour)", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".tsx") ? [join(dir, e.name)] : []));
    const uses = files(src).flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .filter((line) => /\b(seatHex|rabbitHex)\(/.test(line))
        .map((line) => line.trim()),
    );
    expect(uses.length).toBeGreaterThan(5);
    const bare = uses.filter((line) => !/(<RabbitIcon color=\{(seatHex|rabbitHex)\(|\bcolor: seatHex\()/.test(line));
    expect(bare).toEqual([]);
  });

  it("the contrast formula gives WCAG's known values", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  });
});
