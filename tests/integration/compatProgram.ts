/**
 * A user's program on a chosen Node and `@pulumi/pulumi`, for the compatibility test.
 *
 * Why not the repo's node_modules: a user installs the packed package from the registry next
 * to the `@pulumi/pulumi` they chose, and runs it on their own Node. So the program gets its
 * own node_modules, installed by npm running on that Node, from the `npm pack` tarball, and
 * every CLI run puts that Node first on PATH (the language host and the dynamic-provider
 * launcher both start `node` from PATH).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { REPO_ROOT, createTestStack, type TestStack } from "./harness";
import type { NodeRuntime } from "./nodeRuntime";

/** The lowest `@pulumi/pulumi` this package's peer range allows (`^3.139.0` gives `3.139.0`). */
export function peerFloor(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
  const range = String(manifest.peerDependencies?.["@pulumi/pulumi"]);
  const m = /^\^(\d+\.\d+\.\d+)$/.exec(range);
  if (!m) throw new Error(`expected a caret peer range for @pulumi/pulumi, found "${range}"`);
  return String(m[1]);
}

/** `npm pack` of the repo (built `dist/` included) into `destDir`; returns the tarball's path. */
export function packPackage(destDir: string): string {
  if (!fs.existsSync(path.join(REPO_ROOT, "dist", "sdk", "nodejs", "index.js"))) {
    throw new Error("dist/ is not built: run `make build` (or `npx tsc -p tsconfig.json`) before packing");
  }
  const out = execFileSync("npm", ["pack", "--pack-destination", destDir, "--json"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: withoutNpmScriptEnv(process.env),
  });
  const [packed] = JSON.parse(out) as Array<{ filename: string }>;
  if (!packed) throw new Error(`npm pack printed no tarball: ${out}`);
  return path.join(destDir, packed.filename);
}

/** What a compatibility program installs; every version is exact, so runs are reproducible. */
export interface ProgramVersions {
  node: NodeRuntime;
  pulumi: string;
  typesNode: string;
  typescript: string;
}

/**
 * Writes the quickstart example (`examples/quickstart`) into `programDir` with a package.json
 * that depends on the packed tarball and the chosen versions, plus two outputs naming the Node
 * and `@pulumi/pulumi` that really ran it, then runs `npm install` on the chosen Node.
 */
export function writeCompatProgram(programDir: string, tarball: string, versions: ProgramVersions): void {
  const example = path.join(REPO_ROOT, "examples", "quickstart");
  fs.mkdirSync(programDir, { recursive: true });
  for (const file of ["Pulumi.yaml", "tsconfig.json"]) fs.copyFileSync(path.join(example, file), path.join(programDir, file));
  const source = fs.readFileSync(path.join(example, "index.ts"), "utf8");
  fs.writeFileSync(
    path.join(programDir, "index.ts"),
    [
      source.trimEnd(),
      "",
      "// Added by tests/integration/compat.test.ts: what actually ran this program.",
      "export const nodeVersion = process.version;",
      `export const pulumiSdkVersion: string = require("@pulumi/pulumi/package.json").version;`,
      "",
    ].join("\n"),
  );
  const manifest = {
    name: "cloudplatform-compat",
    private: true,
    main: "index.ts",
    dependencies: { "@pulumi/pulumi": versions.pulumi, "pulumi-cloudplatform": `file:${tarball}` },
    devDependencies: { "@types/node": versions.typesNode, typescript: versions.typescript },
  };
  fs.writeFileSync(path.join(programDir, "package.json"), JSON.stringify(manifest, null, 2));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: programDir,
    env: { ...withoutNpmScriptEnv(process.env), PATH: onPath(versions.node.binDir) },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * A stack (through the harness's one {@link createTestStack}) whose program is the quickstart
 * written by {@link writeCompatProgram} with `versions`, run on `versions.node`.
 */
export function createCompatStack(tarball: string, versions: ProgramVersions, config: ConfigMap): Promise<TestStack> {
  return createTestStack({
    stackName: "compat",
    writeProgram: (programDir) => writeCompatProgram(programDir, tarball, versions),
    envVars: { PATH: onPath(versions.node.binDir) },
    config,
  });
}

/** This process's PATH with `binDir` first. */
function onPath(binDir: string): string {
  return `${binDir}${path.delimiter}${process.env.PATH ?? ""}`;
}

/**
 * The environment without what `npm run` / `npx` add about the repo they ran in (its package,
 * lifecycle, local prefix, and the Node 20 npm ran on), so the program's npm works in the
 * program's directory on the chosen Node. The user's own npm settings (`npm_config_registry`,
 * cache, proxy, CA) pass through.
 */
export function withoutNpmScriptEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const repoSpecific = (k: string) =>
    /^npm_(package|lifecycle)_/i.test(k) || /^npm_(config_local_prefix|command|execpath|node_execpath)$/i.test(k);
  return Object.fromEntries(Object.entries(env).filter(([k]) => !repoSpecific(k)));
}
