/**
 * Where the repository is, for every helper that runs something from it (the harness, the Node
 * runtimes): one module of its own so those helpers need not import each other.
 */
import * as fs from "fs";
import * as path from "path";

/**
 * The repository root: the program directory of every test stack. Found by walking up to this
 * package's package.json, so the harness also works compiled elsewhere (bench uses dist-bench/).
 */
export const REPO_ROOT = findPackageRoot(__dirname);

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, "utf8")).name === "pulumi-cloudplatform") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-cloudplatform package.json above ${start}`);
  }
}
