// Fails when the client's own modules import each other in a cycle (type-only imports count:
// a cycle of types is still a knot in the design). Reads every import/export-from under src/
// and walks the graph; prints each cycle found as a → b → a.
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../src");
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];
const IMPORT = /(?:^|[;\s])(?:import|export)\s[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

function target(from, spec) {
  if (!spec.startsWith(".")) return null; // a package, not ours
  const base = resolve(dirname(from), spec);
  if (existsSync(base) && statSync(base).isFile()) return /\.tsx?$/.test(base) ? base : null;
  for (const ext of EXTENSIONS) if (existsSync(base + ext)) return base + ext;
  return null;
}

export function graph(dir = root) {
  const edges = new Map();
  for (const file of files(dir)) {
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    const out = new Set();
    for (const m of text.matchAll(IMPORT)) {
      const to = target(file, m[1] ?? m[2]);
      if (to) out.add(to);
    }
    edges.set(file, [...out].sort());
  }
  return edges;
}

export function cycles(edges) {
  const found = [];
  const state = new Map(); // 1: on the stack, 2: done
  const stack = [];
  const visit = (node) => {
    state.set(node, 1);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 1) found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 2);
  };
  for (const node of [...edges.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const edges = graph();
  const found = cycles(edges);
  const name = (f) => relative(root, f);
  if (found.length) {
    for (const c of found) console.error(`import cycle: ${c.map(name).join(" → ")}`);
    process.exit(1);
  }
  console.log(`check-cycles: ${edges.size} modules, no import cycle`);
}
