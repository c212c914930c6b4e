/**
 * The client layer depends on nothing above it, the two adapters do not import each other,
 * and the package's `pulumi-cloudplatform/api` entry still offers the client together with the
 * task waiter and its errors.
 */
import * as fs from "fs";
import * as path from "path";
import * as entry from "../../../provider/apiEntry";

const API_DIR = path.resolve(__dirname, "../../../provider/api");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith(".ts") ? [p] : [];
  });
}

test("no module of provider/api imports from outside provider/api (relative imports)", () => {
  const outside: string[] = [];
  for (const file of sources(API_DIR)) {
    for (const m of fs.readFileSync(file, "utf8").matchAll(/\bfrom\s+"(\.{1,2}\/[^"]+)"/g)) {
      const target = path.resolve(path.dirname(file), m[1] as string);
      if (!target.startsWith(API_DIR + path.sep) && target !== API_DIR) outside.push(`${path.relative(API_DIR, file)} -> ${m[1]}`);
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
      for (const m of fs.readFileSync(file, "utf8").matchAll(/\bfrom\s+"(\.{1,2}\/[^"]+)"/g)) {
        const target = path.resolve(path.dirname(file), m[1] as string);
        if (target === other || target.startsWith(other + path.sep)) crossing.push(`${path.relative(PROVIDER, file)} -> ${m[1]}`);
      }
    }
  }
  expect(crossing).toEqual([]);
});

test("pulumi-cloudplatform/api exports the client, the waiter and the task errors", () => {
  const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../../package.json"), "utf8"));
  expect(pkg.exports["./api"].default).toBe("./dist/provider/apiEntry.js");
  for (const name of ["createClient", "waitForTask", "recommendedIntervalMs", "DEFAULT_TASK_TIMEOUT_MS", "TaskFailedError", "TaskTimeoutError", "TaskCancelledError", "NotFoundError"]) {
    expect(entry).toHaveProperty(name);
  }
});
