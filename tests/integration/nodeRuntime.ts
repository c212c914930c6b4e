/**
 * The Node releases test runs put first on PATH: the pinned releases of `tools/node-runtime.sh`
 * (from the npm registry, cached outside the repo) and this machine's own `node`.
 */
import { execFileSync } from "child_process";
import * as path from "path";
import { REPO_ROOT } from "./repoRoot";

/** A Node release and the directory whose `node` the runs use. */
export interface NodeRuntime {
  /** As `node --version` prints it, e.g. `v24.21.0`. */
  version: string;
  binDir: string;
}

/** The release `tools/node-runtime.sh` pins for a major, without downloading it. */
export function pinnedNodeVersion(major: number): string {
  return `v${runScript(["--print-version", String(major)])}`;
}

/** The directory holding the pinned release's `node`, downloaded into the cache outside the repo on first use. */
export function pinnedNodeBin(major: number): string {
  return runScript([String(major)]);
}

/** The pinned release of a major with its version, downloaded on first use like {@link pinnedNodeBin}. */
export function pinnedNode(major: number): NodeRuntime {
  return { version: pinnedNodeVersion(major), binDir: pinnedNodeBin(major) };
}

/** The `node` first on this machine's PATH: the one a user of this machine runs by default. */
export function machineNode(): NodeRuntime {
  const script = "process.stdout.write(JSON.stringify([process.version, process.execPath]))";
  const [version, execPath] = JSON.parse(execFileSync("node", ["-e", script], { encoding: "utf8" })) as [string, string];
  return { version, binDir: path.dirname(execPath) };
}

function runScript(args: string[]): string {
  return execFileSync("bash", [path.join(REPO_ROOT, "tools/node-runtime.sh"), ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
}
