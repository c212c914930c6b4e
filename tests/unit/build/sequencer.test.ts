/**
 * tests/sequencer.js starts the longest integration suites first on a fresh clone, from a table
 * of measured durations. A suite missing from the table would run first and a renamed one would
 * keep a stale entry, so the table must name exactly the integration test files there are.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const ROOT = path.resolve(__dirname, "../../..");

function integrationSuites(): string[] {
  return ["tests/integration", "tests/reliability"].flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir))
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => `${dir}/${f}`),
  );
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const LongestFirst = require(path.join(ROOT, "tests/sequencer.js"));

test("the sequencer's table names every integration suite and nothing else", () => {
  expect(Object.keys(LongestFirst.MEASURED_SECONDS).sort()).toEqual(integrationSuites().sort());
});

test("with no cached durations, the longest measured suite comes first and the shortest last", () => {
  const sequencer = new LongestFirst();
  // An empty cache directory: no durations from an earlier run, as on a fresh clone.
  const context = { config: { rootDir: ROOT, cacheDirectory: fs.mkdtempSync(path.join(os.tmpdir(), "seq-")), name: "t" }, hasteFS: { getSize: () => 1 } };
  const tests = ["tests/integration/goProgram.test.ts", "tests/integration/malformedAnswersDynamic.test.ts", "tests/integration/lookups.test.ts"].map((p) => ({ path: path.join(ROOT, p), context }));
  const order = sequencer.sort(tests).map((t: { path: string }) => path.relative(ROOT, t.path));
  expect(order).toEqual(["tests/integration/malformedAnswersDynamic.test.ts", "tests/integration/lookups.test.ts", "tests/integration/goProgram.test.ts"]);
});

test("the unit table names existing unit suites; a slow one comes before the rest, which count as one second", () => {
  for (const file of Object.keys(LongestFirst.UNIT_SECONDS)) expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
  const sequencer = new LongestFirst();
  const context = { config: { rootDir: ROOT, cacheDirectory: fs.mkdtempSync(path.join(os.tmpdir(), "seq-")), name: "u" }, hasteFS: { getSize: () => 1 } };
  const tests = ["tests/unit/caughtErrors.test.ts", "tests/unit/resources/k8sUpgradeLock.test.ts", "tests/unit/api/transport.test.ts"].map((p) => ({ path: path.join(ROOT, p), context }));
  const order = sequencer.sort(tests).map((t: { path: string }) => path.relative(ROOT, t.path));
  expect(order).toEqual(["tests/unit/resources/k8sUpgradeLock.test.ts", "tests/unit/api/transport.test.ts", "tests/unit/caughtErrors.test.ts"]);
});
