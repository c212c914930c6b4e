/**
 * Every TypeScript snippet of the README and of the manual's pages must compile against the
 * built package, imported the way users import it (`pulumi-cloudplatform`,
 * `pulumi-cloudplatform/api`, `.../simulator`). Left out: docs/api.md (generated one-line
 * fragments, checked by apiReference.test.ts) and docs/_index.md (registryDocs.test.ts).
 * Needs `dist/` (make test-unit builds first).
 */
import * as path from "path";
import { manualPages, readPage, REPO_ROOT } from "./markdown";
import { compileSnippets, typescriptBlocks } from "./snippets";
import { CPU_BOUND_MS } from "../cpuBound";

// git-ignored; registryDocs.test.ts uses tests/.docs-snippets, and each run empties its own.
const SNIPPET_DIR = path.join(REPO_ROOT, "tests/.readme-snippets");
/** The npm name of the Node.js SDK that `pulumi package add` generates from the plugin's schema. */
const GENERATED_SDK = "@pulumi-cloudplatform/cloudplatform";
/** Where the program of tests/integration/pluginPackageAdd.test.ts is read from. */
const PACKAGE_ADD_PAGE = "docs/installation-configuration.md";

const pages = manualPages().filter((p) => p !== "docs/api.md" && p !== "docs/_index.md");
const snippets = pages.flatMap((page) => typescriptBlocks(readPage(page)).map((code) => ({ page, code })));

describe("the docs' TypeScript snippets", () => {
  it("show the resources, the lookups, the API client and the simulator, and the README has a quickstart", () => {
    const all = snippets.map((s) => s.code).join("\n");
    for (const name of ["K8sClusterUpgrade", "StorageEvent", "getRegion", "createClient", "startSimulator"]) expect(all).toContain(name);
    // The quickstart first; the configuration section's two accounts after it.
    const readme = snippets.filter((s) => s.page === "README.md").map((s) => s.code);
    expect(readme[0]).toContain("new cloud.K8sClusterUpgrade(");
    expect(readme.slice(1).some((code) => code.includes("new cloud.Provider("))).toBe(true);
  });

  it(`have one program on the SDK that pulumi package add generates, in ${PACKAGE_ADD_PAGE}`, () => {
    // It exists only in a program after that command: it runs in tests/integration/pluginPackageAdd.test.ts instead.
    expect(snippets.filter((s) => s.code.includes(`from "${GENERATED_SDK}"`)).map((s) => s.page)).toEqual([PACKAGE_ADD_PAGE]);
  });

  it("compile with the strict compiler options", () => {
    const ours = snippets.filter((s) => !s.code.includes(`from "${GENERATED_SDK}"`));
    expect(ours.length).toBeGreaterThanOrEqual(7);
    const where = ours.map((s, i) => `snippet-${i + 1}.ts is from ${s.page}`);
    expect({ errors: compileSnippets(ours.map((s) => s.code), SNIPPET_DIR), where }).toEqual({ errors: [], where });
  }, CPU_BOUND_MS);
});
