import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, graph } from "../scripts/check-cycles.mjs";
import { parseRoute } from "../src/routes";

describe("routes", () => {
  it("maps room links, the TV view, home, and anything else to not found", () => {
    expect(parseRoute("/r/abcd")).toEqual({ page: "room", code: "ABCD", tv: false });
    expect(parseRoute("/r/ABCD/tv")).toEqual({ page: "room", code: "ABCD", tv: true });
    expect(parseRoute("/")).toEqual({ page: "home" });
    expect(parseRoute("/rules")).toEqual({ page: "rules" });
    expect(parseRoute("/r/!!bad")).toEqual({ page: "notFound", path: "/r/!!bad" });
    expect(parseRoute("/nothing")).toEqual({ page: "notFound", path: "/nothing" });
  });
});

describe("check-cycles", () => {
  const tree = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), "cycles-"));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, ".."), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  };

  it("finds a cycle through a type-only import", () => {
    const dir = tree({
      "a.ts": 'import { b } from "./sub/b";\nexport const a = b;\n',
      "sub/b.ts": 'import type { A } from "../c";\nexport const b = 1 as unknown as A;\n',
      "c.tsx": 'export type { a as A } from "./a";\n',
    });
    const found = cycles(graph(dir));
    expect(found).toHaveLength(1);
    expect(found[0]!.map((f) => f.slice(dir.length + 1))).toEqual(["a.ts", "sub/b.ts", "c.tsx", "a.ts"]);
  });

  it("passes a tree without cycles and ignores packages and comments", () => {
    const dir = tree({
      "a.ts": '// import { x } from "./b";\nimport { h } from "preact";\nimport { b } from "./b";\nexport const a = [h, b];\n',
      "b.ts": "export const b = 2;\n",
    });
    expect(cycles(graph(dir))).toEqual([]);
  });
});
