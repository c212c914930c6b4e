/**
 * What `npm pack` ships: every source file a source map in `dist/` points at (so a stack frame
 * mapped to `provider/...ts` names a file that exists in the installed package), the API
 * reference, and the simulator's contract and seed, which the README points users to inside
 * `node_modules/pulumi-cloudplatform/`. Needs `dist/` (make test-unit builds first).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

const REPO_ROOT = path.resolve(__dirname, "../../..");

function packedFiles(): Set<string> {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  return new Set((pack?.files ?? []).map((f) => f.path));
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe("the packed package", () => {
  const files = packedFiles();

  it("ships every source a source map of dist/ points at", () => {
    const maps = filesUnder(path.join(REPO_ROOT, "dist")).filter((f) => f.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const map of maps) {
      const { sources } = JSON.parse(fs.readFileSync(map, "utf8")) as { sources: string[] };
      for (const source of sources) {
        const packed = path.relative(REPO_ROOT, path.resolve(path.dirname(map), source)).split(path.sep).join("/");
        if (!files.has(packed)) missing.push(`${path.relative(REPO_ROOT, map)} -> ${packed}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("ships every file the README points at inside node_modules/pulumi-cloudplatform/", () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    const pointed = [...new Set([...readme.matchAll(/node_modules\/pulumi-cloudplatform\/([\w./-]+\w)/g)].map((m) => m[1] as string))];
    for (const must of ["docs/api.md", "simulator/CONTRACT.md", "simulator/seed/default.json"]) expect(pointed).toContain(must);
    expect(pointed.filter((p) => !files.has(p))).toEqual([]);
  });
});
