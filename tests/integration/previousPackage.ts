/**
 * The npm package as an earlier commit packed it, and program directories that install a packed
 * package the way npm lays it out, so a test can run one stack with two versions of the package.
 *
 * Why a commit and a cache: the package of {@link PREVIOUS_COMMIT} (the last one whose dynamic
 * resources stored `pulumi.dynamic.Resource`'s serialized closures as `__provider`) is what
 * existing stacks were written by. It is built once from `git archive` of that commit, with the
 * repo's node_modules (the same dependencies), and kept outside the repo, keyed by the commit,
 * like the other caches under ~/.cache/pulumi-cloudplatform. Nothing in the working tree changes.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "./repoRoot";

/** The commit whose package wrote 0.1.0's serialized `__provider` (before the one-line text). */
export const PREVIOUS_COMMIT = "2bf0499458f468ae6ca59b00279b0c2536ed443c";

function cacheBase(): string {
  return process.env.CLOUDPLATFORM_CLI_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-cloudplatform");
}

/**
 * The tarball `npm pack` made of {@link PREVIOUS_COMMIT}, built on first use (about a minute of
 * tsc) and cached. Needs the repo's git history and `node_modules`.
 */
export function previousPackageTarball(commit = PREVIOUS_COMMIT): string {
  const dir = path.join(cacheBase(), `package-${commit.slice(0, 12)}`);
  const tarball = path.join(dir, "package.tgz");
  if (fs.existsSync(tarball)) return tarball;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-previous-"));
  try {
    const tree = path.join(work, "tree");
    fs.mkdirSync(tree);
    try {
      execFileSync("git", ["-C", REPO_ROOT, "cat-file", "-e", `${commit}^{commit}`], { stdio: "pipe" });
    } catch {
      throw new Error(`the previous package is built from commit ${commit}, which this clone does not have (a shallow clone?): run \`git fetch --unshallow\` and try again`);
    }
    execFileSync("bash", ["-c", `git -C "$0" archive --format=tar "$1" | tar -x -C "$2"`, REPO_ROOT, commit, tree], { stdio: "pipe" });
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(tree, "node_modules"), "dir");
    execFileSync(process.execPath, [path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: tree, stdio: "pipe" });
    const out = execFileSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: tree, encoding: "utf8", env: npmEnv() });
    const [packed] = JSON.parse(out) as Array<{ filename: string }>;
    if (!packed) throw new Error(`npm pack printed no tarball: ${out}`);
    // Placed by one rename, so a concurrent or interrupted build never leaves half a tarball.
    fs.mkdirSync(cacheBase(), { recursive: true });
    const staging = fs.mkdtempSync(path.join(cacheBase(), ".package-"));
    fs.copyFileSync(path.join(work, packed.filename), path.join(staging, "package.tgz"));
    try {
      fs.renameSync(staging, dir);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another run placed it first
    }
    return tarball;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The environment without what `npm run`/`npx` set about the repo they ran in. */
function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_(package|lifecycle)_|^npm_config_local_prefix$/i.test(k)));
}

/**
 * Makes `programDir/node_modules` what `npm install <tarball>` gives a program, without the
 * registry: the packed package as `pulumi-cloudplatform`, and every other entry of the repo's
 * node_modules (its dependencies and `@pulumi/pulumi`) linked. Replaces a package installed
 * before, as an upgrade does.
 */
export function installPackedPackage(programDir: string, tarball: string): void {
  const modules = path.join(programDir, "node_modules");
  if (!fs.existsSync(modules)) {
    fs.mkdirSync(modules, { recursive: true });
    for (const entry of fs.readdirSync(path.join(REPO_ROOT, "node_modules"))) {
      if (entry === "pulumi-cloudplatform" || entry.startsWith(".")) continue;
      fs.symlinkSync(path.join(REPO_ROOT, "node_modules", entry), path.join(modules, entry));
    }
  }
  const target = path.join(modules, "pulumi-cloudplatform");
  fs.rmSync(target, { recursive: true, force: true });
  const unpack = fs.mkdtempSync(path.join(programDir, ".unpack-"));
  execFileSync("tar", ["-xzf", tarball, "-C", unpack]);
  fs.renameSync(path.join(unpack, "package"), target);
  fs.rmSync(unpack, { recursive: true, force: true });
}
