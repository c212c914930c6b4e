/**
 * What `npm pack` ships: the compiled package with its declarations and source maps (each map
 * carries its TypeScript source inline, so a mapped stack frame or a debugger shows the code
 * without the .ts files in the package) and every entry point `exports` names, the manual's pages under docs/, and the simulator's
 * contract and seed, which the docs point users to inside `node_modules/pulumi-cloudplatform/`;
 * no tests, no build stamps, no TypeScript sources. A page shipped in the package links only to
 * files shipped with it, so no link is dead where an installed package is read. Needs `dist/`
 * (make test-unit builds first).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { manualPages, readPage, relativeLinks } from "./markdown";

const REPO_ROOT = path.resolve(__dirname, "../../..");

function packedFiles(): Set<string> {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  return new Set((pack?.files ?? []).map((f) => f.path));
}

describe("the packed package", () => {
  const files = packedFiles();

  it("ships no tests, no build stamps and no TypeScript sources except declarations", () => {
    const unwanted = [...files].filter((f) => /(^|\/)tests?\/|\.test\.|\.stamp$|(?<!\.d)\.ts$/.test(f));
    expect(unwanted).toEqual([]);
    expect(files.has("dist/sdk/nodejs/index.d.ts")).toBe(true);
    expect(files.has("dist/provider/plugin/main.js")).toBe(true);
  });

  it("ships every entry point package.json exports, with its declarations, for both module resolutions", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      exports: Record<string, string | { types: string; default: string }>;
      typesVersions: Record<string, Record<string, string[]>>;
    };
    const entries = Object.entries(manifest.exports).filter(([name]) => name !== "./package.json");
    expect(entries.map(([name]) => name)).toEqual(expect.arrayContaining([".", "./api", "./simulator", "./testing"]));
    const missing = entries.flatMap(([name, target]) =>
      (typeof target === "string" ? [target] : [target.types, target.default]).map((f) => f.replace(/^\.\//, "")).filter((f) => !files.has(f)).map((f) => `${name}: ${f}`),
    );
    expect(missing).toEqual([]);
    // Node10 resolution (older TypeScript settings) finds a subpath's declarations through typesVersions.
    const legacy = manifest.typesVersions["*"] ?? {};
    for (const [name, target] of entries) {
      const sub = name.replace(/^\.\/?/, "");
      if (sub === "" || sub.startsWith("internal/") || typeof target === "string") continue;
      expect([name, legacy[sub]]).toEqual([name, [target.types.replace(/^\.\//, "")]]);
    }
  });

  it("ships source maps that carry every source they point at inline", () => {
    const maps = [...files].filter((f) => f.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(20);
    const withoutSource: string[] = [];
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, map), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
      sources.forEach((source, i) => {
        if (typeof sourcesContent?.[i] !== "string" || sourcesContent[i] === "") withoutSource.push(`${map} -> ${source}`);
      });
    }
    expect(withoutSource).toEqual([]);
  });

  it("ships every file (or directory) the docs point at inside node_modules/pulumi-cloudplatform/", () => {
    const docs = manualPages().map(readPage).join("\n");
    const pointed = [...new Set([...docs.matchAll(/node_modules\/pulumi-cloudplatform\/([\w./-]+\w)/g)].map((m) => m[1] as string))];
    for (const must of ["docs/api.md", "simulator/CONTRACT.md", "simulator/seed/default.json", "bin"]) expect(pointed).toContain(must);
    const shipped = (p: string) => files.has(p) || [...files].some((f) => f.startsWith(`${p}/`));
    expect(pointed.filter((p) => !shipped(p))).toEqual([]);
  });

  it("ships every page of docs/, each linking only to files it ships", () => {
    const pages = manualPages().filter((p) => p.startsWith("docs/"));
    expect(pages.length).toBeGreaterThanOrEqual(10);
    expect(pages.filter((p) => !files.has(p))).toEqual([]);
    const shipped = (file: string) => files.has(file) || [...files].some((f) => f.startsWith(`${file}/`));
    const outside = pages.flatMap((page) => relativeLinks(page, readPage(page)).filter((l) => !shipped(l.file)).map((l) => `${page}: ${l.target}`));
    expect(outside).toEqual([]);
  });
});
