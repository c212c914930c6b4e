/**
 * Every TypeScript snippet in README.md must compile against the built package, imported the
 * way users import it (`pulumi-cloudplatform`, `pulumi-cloudplatform/api`, `.../simulator`).
 * Needs `dist/` (make test-unit builds first).
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const SNIPPET_DIR = path.join(REPO_ROOT, "tests/.readme-snippets");
/** The npm name of the Node.js SDK that `pulumi package add` generates from the plugin's schema. */
const GENERATED_SDK = "@pulumi-cloudplatform/cloudplatform";

/** The ```ts blocks of a markdown text, in order. */
export function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
}

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
    fs.rmSync(SNIPPET_DIR, { recursive: true, force: true });
    fs.mkdirSync(SNIPPET_DIR, { recursive: true });
    // The SDK `pulumi package add` generates exists only in a program after that command: its
    // snippet runs as the program of tests/integration/pluginPackageAdd.test.ts instead.
    const ours = blocks.filter((code) => !code.includes(`from "${GENERATED_SDK}"`));
    expect(ours.length).toBe(blocks.length - 1);
    const files = ours.map((code, i) => {
      const file = path.join(SNIPPET_DIR, `snippet-${i + 1}.ts`);
      // A snippet without import/export would share the global scope with the others.
      const isModule = /^\s*(import|export)\s/m.test(code);
      fs.writeFileSync(file, isModule ? code : `${code}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      esModuleInterop: true,
      skipLibCheck: true,
      types: ["node"],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(problems).toEqual([]);
  });
});
