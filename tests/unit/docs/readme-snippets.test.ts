/**
 * Every TypeScript snippet in README.md must compile against the built package, imported the
 * way users import it (`pulumi-cloudplatform`, `pulumi-cloudplatform/api`, `.../simulator`).
 * Needs `dist/` (make test-unit builds first).
 */
import * as fs from "fs";
import * as path from "path";
import { compileSnippets, typescriptBlocks } from "./snippets";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const SNIPPET_DIR = path.join(REPO_ROOT, "tests/.readme-snippets");
/** The npm name of the Node.js SDK that `pulumi package add` generates from the plugin's schema. */
const GENERATED_SDK = "@pulumi-cloudplatform/cloudplatform";

describe("README snippets", () => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const blocks = typescriptBlocks(readme);

  it("has snippets for the resources, the lookups, the API client and the simulator", () => {
    const all = blocks.join("\n");
    for (const name of ["K8sClusterUpgrade", "StorageEvent", "getRegion", "createClient", "startSimulator"]) {
      expect(all).toContain(name);
    }
  });

  it("compiles every snippet with the strict compiler options", () => {
    // The SDK `pulumi package add` generates exists only in a program after that command: its
    // snippet runs as the program of tests/integration/pluginPackageAdd.test.ts instead.
    const ours = blocks.filter((code) => !code.includes(`from "${GENERATED_SDK}"`));
    expect(ours.length).toBe(blocks.length - 1);
    expect(compileSnippets(ours, SNIPPET_DIR)).toEqual([]);
  });
});
