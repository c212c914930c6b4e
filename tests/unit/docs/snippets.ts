/**
 * Compiling the TypeScript snippets of a Markdown page against the built package, imported the
 * way users import it (`pulumi-cloudplatform`, `pulumi-cloudplatform/api`, `.../simulator`).
 * Shared by the README's and the Registry pages' snippet tests. Needs `dist/`.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

/** The ```ts blocks of a markdown text, in order. */
export function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
}

/**
 * Writes each snippet to `dir` (emptied first) and compiles them together with the strict
 * compiler options; returns the diagnostics as `snippet-N.ts:line message`, none when all compile.
 */
export function compileSnippets(blocks: readonly string[], dir: string): string[] {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const files = blocks.map((code, i) => {
    const file = path.join(dir, `snippet-${i + 1}.ts`);
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
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}
