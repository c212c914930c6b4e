/**
 * The packed package's declarations and the TypeScript examples compile with the TypeScript
 * versions users get: the project's own (the examples pin it), 6, and what a bare
 * `npm install typescript` installs today (7). The package (`npm pack`) is installed once, as a
 * user installs it, beside `@pulumi/pulumi` and the type packages the examples use; each
 * compiler is installed into its own directory (npm's cache keeps them) and checks:
 * - a file importing every entry (`pulumi-cloudplatform`, `/api`, `/simulator`, `/testing`)
 *   with `skipLibCheck` off, so an error inside the package's `.d.ts` files counts;
 * - every example with a tsconfig.json, with that tsconfig (examples/<name> copied, its
 *   node_modules the shared install).
 * Errors in other packages' declarations (an old `@types/node` under a newer compiler) are not
 * the package's and are left out. Needs `dist/` built.
 */
import { execFileSync, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { packPackage, withoutNpmScriptEnv } from "./compatProgram";
import { REPO_ROOT } from "./repoRoot";

jest.setTimeout(600_000);

const repoManifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
/** Exact versions, so npm takes them from its cache after the first run (`npm view typescript version` for the newest). */
const COMPILERS = [repoManifest.devDependencies["typescript"] as string, "6.0.3", "7.0.2"];
const EXAMPLES = fs
  .readdirSync(path.join(REPO_ROOT, "examples"))
  .filter((name) => fs.existsSync(path.join(REPO_ROOT, "examples", name, "tsconfig.json")))
  .sort();

const ENTRIES_PROBE = `import * as cloud from "pulumi-cloudplatform";
import * as api from "pulumi-cloudplatform/api";
import * as simulator from "pulumi-cloudplatform/simulator";
import * as testing from "pulumi-cloudplatform/testing";

export const entries = [cloud, api, simulator, testing];
export const seed: testing.SimulatorSeed = testing.defaultSeed();
export const provider: typeof cloud.Provider = cloud.Provider;
`;
const PROBE_TSCONFIG = {
  compilerOptions: { strict: true, target: "ES2022", module: "node16", noEmit: true, skipLibCheck: false, types: ["node"] },
  files: ["index.ts"],
};

let work: string;
let project: string;

function npmInstall(dir: string, specs: string[]): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: path.basename(dir), private: true }));
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...specs], {
    cwd: dir,
    env: withoutNpmScriptEnv(process.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** A directory under the shared install: the probe, or a copy of an example. */
function projectDir(name: string, fill: (dir: string) => void): string {
  const dir = path.join(project, name);
  fill(dir);
  fs.symlinkSync(path.join(project, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

/** `tsc --noEmit -p dir` of `compiler`: the error lines about this package or the project's own files. */
function compileErrors(compiler: string, dir: string): string[] {
  const tsc = path.join(work, `typescript-${compiler}`, "node_modules", ".bin", "tsc");
  const run = spawnSync(tsc, ["--noEmit", "-p", dir, "--pretty", "false"], { cwd: dir, encoding: "utf8" });
  const lines = `${run.stdout}${run.stderr}`.split("\n").filter((l) => /error TS\d+/.test(l));
  return lines.filter((l) => !l.startsWith("../node_modules/") || l.startsWith("../node_modules/pulumi-cloudplatform/"));
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-typescript-"));
  project = path.join(work, "project");
  const dev = repoManifest.devDependencies;
  npmInstall(project, [packPackage(work), `@pulumi/pulumi@${dev["@pulumi/pulumi"]}`, `@types/node@${dev["@types/node"]}`, `@types/jest@${dev["@types/jest"]}`]);
  for (const compiler of COMPILERS) npmInstall(path.join(work, `typescript-${compiler}`), [`typescript@${compiler}`]);
  projectDir("entries", (dir) => {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "index.ts"), ENTRIES_PROBE);
    fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(PROBE_TSCONFIG));
  });
  for (const example of EXAMPLES) {
    projectDir(example, (dir) => fs.cpSync(path.join(REPO_ROOT, "examples", example), dir, { recursive: true, filter: (src) => !src.includes("node_modules") }));
  }
});
afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("the examples with a tsconfig.json are the TypeScript ones", () => {
  expect(EXAMPLES).toEqual(expect.arrayContaining(["quickstart", "testing-typescript"]));
});

describe.each(COMPILERS)("TypeScript %s", (compiler) => {
  test("compiles every entry of the packed package's declarations, skipLibCheck off", () => {
    const tsc = path.join(work, `typescript-${compiler}`, "node_modules", ".bin", "tsc");
    expect(execFileSync(tsc, ["-v"], { encoding: "utf8" }).trim()).toBe(`Version ${compiler}`);
    expect(compileErrors(compiler, path.join(project, "entries"))).toEqual([]);
  });

  test.each(EXAMPLES)("compiles examples/%s with its tsconfig.json", (example) => {
    expect(compileErrors(compiler, path.join(project, example))).toEqual([]);
  });
});
