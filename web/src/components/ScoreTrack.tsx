import { useEffect, useRef, useState } from "preact/hooks";
import { RabbitShape } from "./Rabbit";

export interface TrackPlayer {
  id: string;
  name: string;
  color: string;
  score: number;
  gained?: number;
}

const SPACES = 31; // 0..30, as on the board; beyond 30 a rabbit starts a new lap
const PER_ROW = 8;
const DX = 84;
const DY = 78;
const X0 = 48;
const Y0 = 62;

export function spacePosition(space: number): { x: number; y: number } {
  const row = Math.floor(space / PER_ROW);
  const col = space % PER_ROW;
  const c = row % 2 === 0 ? col : PER_ROW - 1 - col;
  return { x: X0 + c * DX, y: Y0 + row * DY };
}

function trackPath(): string {
  let d = "";
  for (let s = 0; s < SPACES; s++) {
    const p = spacePosition(s);
    if (s === 0) d += `M${p.x} ${p.y}`;
    else if (s % PER_ROW === 0) {
      const q = spacePosition(s - 1);
      const bulge = (Math.floor(s / PER_ROW) % 2 === 1 ? 1 : -1) * 46;
      d += ` C${q.x + bulge} ${q.y} ${p.x + bulge} ${p.y} ${p.x} ${p.y}`;
    } else d += ` L${p.x} ${p.y}`;
  }
  return d;
}

const PATH = trackPath();
const ROWS = Math.ceil(SPACES / PER_ROW);
const WIDTH = X0 * 2 + (PER_ROW - 1) * DX;
const HEIGHT = Y0 * 2 + (ROWS - 1) * DY;

/**
 * Scores as the rabbits show them: when a score rises, the rabbit hops forward one space at a
 * time (a rabbit that drops back, e.g. in a rematch, jumps straight there).
 */
function useHops(players: TrackPlayer[]): Map<string, number> {
  const [shown, setShown] = useState(() => new Map(players.map((p) => [p.id, p.score])));
  const goal = useRef(new Map<string, number>());
  goal.current = new Map(players.map((p) => [p.id, p.score]));
  const key = players.map((p) => `${p.id}:${p.score}`).join(",");
  useEffect(() => {
    const reduced = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
    const step = () => {
      let moving = false;
      setShown((cur) => {
        const next = new Map(cur);
        for (const [id, score] of goal.current) {
          const at = next.get(id) ?? 0;
          if (reduced || at > score || !next.has(id)) next.set(id, score);
          else if (at < score) {
            next.set(id, at + 1);
            moving = moving || at + 1 < score;
          }
        }
        return next;
      });
      return moving;
    };
    step();
    const id = setInterval(() => { if (!step()) clearInterval(id); }, 260);
    return () => clearInterval(id);
  }, [key]);
  return shown;
}

/** The winding score track with a rabbit per player; rabbits hop forward space by space. */
export function lapOf(score: number): number {
  return Math.floor(score / SPACES) + 1;
}

export function ScoreTrack({ players: actual, label, target, lapLabel, scoreLabel }: {
  players: TrackPlayer[];
  label: string;
  target?: number | null;
  /** "lap N" for a rabbit past 30 */
  lapLabel: (lap: number) => string;
  /** what a screen reader hears per player */
  scoreLabel: (name: string, score: number, lap: number) => string;
}) {
  const hops = useHops(actual);
  const players = actual.map((p) => ({ ...p, score: hops.get(p.id) ?? p.score, final: p.score }));
  const bySpace = new Map<number, TrackPlayer[]>();
  for (const p of players) {
    const s = p.score % SPACES;
    bySpace.set(s, [...(bySpace.get(s) ?? []), p]);
  }
  return (
    <figure class="track" data-testid="score-track">
      <figcaption class="sr-only">
        {label}
        <ul>{actual.map((p) => <li key={p.id}>{scoreLabel(p.name, p.score, lapOf(p.score))}</li>)}</ul>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true">
        <path d={PATH} class="track-road" />
        <path d={PATH} class="track-dash" />
        {Array.from({ length: SPACES }, (_, s) => {
          const p = spacePosition(s);
          const goal = target !== undefined && target !== null && s === target;
          return (
            <g key={s} class={`track-space${s % 5 === 0 ? " is-five" : ""}${goal ? " is-goal" : ""}`}>
              <circle cx={p.x} cy={p.y} r={s % 5 === 0 ? 19 : 15} />
              <text x={p.x} y={p.y + 5} text-anchor="middle">{s}</text>
            </g>
          );
        })}
        {players.map((pl) => {
          const s = pl.score % SPACES;
          const group = bySpace.get(s) ?? [pl];
          const k = group.indexOf(pl);
          const n = group.length;
          const base = spacePosition(s);
          // Rabbits sharing a space stand side by side, alternately a little higher.
          const x = base.x + (k - (n - 1) / 2) * (n > 3 ? 11 : 15);
          const y = base.y - 10 - (k % 2) * 7;
          return (
            <g key={pl.id} class="track-rabbit" style={{ transform: `translate(${x}px, ${y}px)` }} data-player={pl.id} data-score={pl.final}>
              <title>{`${pl.name}: ${pl.final}`}</title>
              <g transform="scale(1.9)"><RabbitShape color={pl.color} /></g>
              {lapOf(pl.score) > 1 ? (
                <g class="track-lap" data-testid="lap-mark" data-lap={lapOf(pl.score)}>
                  <rect x={-4} y={-34} width={48} height={20} rx={10} />
                  <text x={20} y={-19} text-anchor="middle">{lapLabel(lapOf(pl.score))}</text>
                </g>
              ) : null}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
