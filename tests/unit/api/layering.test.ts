/**
 * The client layer depends on nothing above it, the two adapters do not import each other, no
 * module of the provider or the simulator takes part in an import circle, and the package's
 * `pulumi-cloudplatform/api` entry still offers the client together with the task waiter and
 * its errors.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as entry from "../../../provider/apiEntry";

const ROOT = path.resolve(__dirname, "../../..");
const API_DIR = path.join(ROOT, "provider/api");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith(".ts") ? [p] : [];
  });
}

/**
 * The relative module specifiers `file` names: `from "./x"` (imports and re-exports, type-only
 * ones too: a circle of types is still a circle to the reader), `import "./x"`, `import("./x")`
 * and `require("./x")`, each with the path it resolves to (before adding an extension).
 */
function relativeImports(file: string): { specifier: string; target: string }[] {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*|\brequire\s*\(\s*)"(\.{1,2}\/[^"]+)"/g)].map((m) => {
    const specifier = m[1] as string;
    return { specifier, target: path.resolve(path.dirname(file), specifier) };
  });
}

/** The .ts source a resolved import names (`x.ts` or `x/index.ts`), or undefined (JSON, a missing file). */
function sourceOf(target: string): string | undefined {
  return [`${target}.ts`, path.join(target, "index.ts")].find((candidate) => fs.existsSync(candidate));
}

/**
 * Every import circle among `files`, each as the chain of files (relative to the repository)
 * that closes it: `a.ts -> b.ts -> a.ts`. A depth-first walk: an import of a file still on the
 * walk's path closes a circle.
 */
function importCircles(files: readonly string[]): string[] {
  const graph = new Map(files.map((f) => [f, relativeImports(f).flatMap(({ target }) => sourceOf(target) ?? [])]));
  const done = new Set<string>();
  const onPath: string[] = [];
  const circles: string[] = [];
  const visit = (file: string): void => {
    if (done.has(file)) return;
    const at = onPath.indexOf(file);
    if (at >= 0) {
      circles.push([...onPath.slice(at), file].map((f) => path.relative(ROOT, f)).join(" -> "));
      return;
    }
    onPath.push(file);
    for (const next of graph.get(file) ?? []) visit(next);
    onPath.pop();
    done.add(file);
  };
  for (const file of files) visit(file);
  return circles;
}

test("no module of provider/api imports from outside provider/api (relative imports)", () => {
  const outside: string[] = [];
  for (const file of sources(API_DIR)) {
    for (const { specifier, target } of relativeImports(file)) {
      if (!target.startsWith(API_DIR + path.sep) && target !== API_DIR) outside.push(`${path.relative(API_DIR, file)} -> ${specifier}`);
    }
  }
  expect(outside).toEqual([]);
});

test("neither adapter imports the other: what both need lives in provider/adapters", () => {
  const PROVIDER = path.resolve(API_DIR, "..");
  const crossing: string[] = [];
  for (const [from, to] of [["dynamic", "plugin"], ["plugin", "dynamic"]] as const) {
    const other = path.join(PROVIDER, to);
    for (const file of sources(path.join(PROVIDER, from))) {
      for (const { specifier, target } of relativeImports(file)) {
        if (target === other || target.startsWith(other + path.sep)) crossing.push(`${path.relative(PROVIDER, file)} -> ${specifier}`);
      }
    }
  }
  expect(crossing).toEqual([]);
});

test("no import circle in provider/ or simulator/: each module can be read after the ones it imports", () => {
  const files = [...sources(path.join(ROOT, "provider")), ...sources(path.join(ROOT, "simulator"))];
  expect(files.length).toBeGreaterThan(50);
  expect(importCircles(files)).toEqual([]);
});

test("the circle check finds a circle: two modules importing each other, one through a re-export", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "circle-"));
  try {
    fs.writeFileSync(path.join(dir, "a.ts"), 'import type { B } from "./b";\nexport interface A { b: B }\n');
    fs.writeFileSync(path.join(dir, "b.ts"), 'export type { A } from "./a";\nexport interface B { n: number }\n');
    fs.writeFileSync(path.join(dir, "c.ts"), 'import { B } from "./b";\n');
    expect(importCircles(sources(dir)).map((c) => c.split(" -> ").map((f) => path.basename(f)))).toEqual([["a.ts", "b.ts", "a.ts"]]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("pulumi-cloudplatform/api exports the client, the waiter and the task errors", () => {
  const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../../package.json"), "utf8"));
  expect(pkg.exports["./api"].default).toBe("./dist/provider/apiEntry.js");
  for (const name of ["createClient", "waitForTask", "recommendedIntervalMs", "DEFAULT_TASK_TIMEOUT_MS", "TaskFailedError", "TaskTimeoutError", "TaskCancelledError", "NotFoundError"]) {
    expect(entry).toHaveProperty(name);
  }
});
