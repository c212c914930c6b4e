/**
 * Generates `docs/api.md`, the reference of every lookup: its arguments and result fields with
 * their types and TSDoc, and the types those results are made of.
 *
 * Why generated: the TypeScript declarations are the truth (users otherwise find field names
 * such as `displayName` or `zoneExists` only in `.d.ts` files), and a reference written by hand
 * drifts from them. `make docs` rewrites the file; a unit test fails when it is stale.
 *
 * Usage: `make docs` (compiles this file with scripts/tsconfig.json and runs it).
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

/** Where the reference is written, relative to the repository root. */
export const API_REFERENCE_PATH = "docs/api.md";

const TYPE_FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

/** One documented member: an argument or a result field. */
interface Member {
  name: string;
  type: string;
  optional: boolean;
  doc: string;
}

/** Text of a TSDoc comment on one line, `{@link X}` reduced to `X`. */
function oneLine(text: string): string {
  return text
    .replace(/\{@link\s+([^}\s|]+)(?:\s*\|\s*[^}]*)?\}/g, "`$1`")
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

/** A markdown table cell: pipes escaped. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

/** A type as written in the reference: no `readonly`, no `| undefined` on optional members. */
function typeText(checker: ts.TypeChecker, type: ts.Type, optional: boolean): string {
  let text = checker.typeToString(type, undefined, TYPE_FLAGS).replace(/\breadonly /g, "");
  if (optional) text = text.replace(/ \| undefined$/, "");
  return text;
}

function membersOf(checker: ts.TypeChecker, type: ts.Type): Member[] {
  return checker.getPropertiesOfType(type).map((p) => {
    const decl = p.valueDeclaration ?? p.declarations?.[0];
    const optional = (p.flags & ts.SymbolFlags.Optional) !== 0;
    const t = decl ? checker.getTypeOfSymbolAtLocation(p, decl) : checker.getDeclaredTypeOfSymbol(p);
    return { name: p.name, type: typeText(checker, t, optional), optional, doc: oneLine(ts.displayPartsToString(p.getDocumentationComment(checker))) };
  });
}

/** The exported interfaces and type aliases of the package's own sources, by name. */
function ownTypes(program: ts.Program, root: string): Map<string, ts.Symbol> {
  const checker = program.getTypeChecker();
  const out = new Map<string, ts.Symbol>();
  for (const sf of program.getSourceFiles()) {
    const rel = path.relative(root, sf.fileName);
    if (!/^(provider|sdk)\//.test(rel)) continue;
    const moduleSymbol = checker.getSymbolAtLocation(sf);
    if (!moduleSymbol) continue;
    for (const s of checker.getExportsOfModule(moduleSymbol)) {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      if (target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) out.set(target.name, target);
    }
  }
  return out;
}

function memberTable(kind: "Argument" | "Field", members: Member[]): string[] {
  if (members.length === 0) return [kind === "Argument" ? "None." : "No fields."];
  const lines =
    kind === "Argument"
      ? ["| Argument | Type | Required | Meaning |", "|---|---|---|---|"]
      : ["| Field | Type | Meaning |", "|---|---|---|"];
  for (const m of members) {
    const type = `\`${cell(m.type)}\``;
    lines.push(
      kind === "Argument"
        ? `| \`${m.name}\` | ${type} | ${m.optional ? "no" : "yes"} | ${cell(m.doc)} |`
        : `| \`${m.name}\` | ${type} | ${cell(m.doc)} |`,
    );
  }
  return lines;
}

function anchor(name: string): string {
  return `#${name.toLowerCase()}`;
}

/** The reference as Markdown, generated from the sources under `root`. */
export function renderApiReference(root: string): string {
  const config = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram([path.join(root, "sdk/nodejs/index.ts")], { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(path.join(root, "sdk/nodejs/index.ts"));
  const moduleSymbol = entry && checker.getSymbolAtLocation(entry);
  if (!moduleSymbol) throw new Error("sdk/nodejs/index.ts not found");
  const types = ownTypes(program, root);

  const lookups = checker
    .getExportsOfModule(moduleSymbol)
    .map((s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s))
    .filter((s) => s.flags & ts.SymbolFlags.Function && /^get[A-Z]/.test(s.name) && !s.name.endsWith("Output"));

  const referenced: string[] = [];
  const seen = new Set<string>();
  const refer = (typeString: string): void => {
    for (const word of typeString.match(/[A-Z]\w*/g) ?? []) {
      if (types.has(word) && !seen.has(word)) {
        seen.add(word);
        referenced.push(word);
      }
    }
  };

  const out: string[] = [
    "# API reference: lookups",
    "",
    "<!-- Generated by `make docs` (scripts/apiReference.ts) from the TypeScript declarations; do not edit by hand. A unit test fails when it is stale. -->",
    "",
    "Every lookup comes in two forms with the same arguments: `getX(args, opts?)` returns a",
    "`Promise<GetXResult>`, and `getXOutput(args, opts?)` returns a `pulumi.Output<GetXResult>` and",
    "takes each argument as a `pulumi.Input`. Names are camelCase (the API's snake_case fields are",
    "converted). A bad argument fails with a `LookupArgumentError` naming the argument and the",
    "allowed values, before any request; unknown argument names are refused.",
    "",
    "Which fields of the API's answers are required, and what an absent or `null` field reads as",
    "(`null`, `[]`, or a refused answer), is written down per answer type in",
    "[api-field-rules.md](api-field-rules.md).",
    "",
    "## Lookups",
    "",
    ...lookups.map((s) => `- [${s.name}](${anchor(s.name)})`),
    "",
  ];

  for (const fn of lookups) {
    const decl = fn.valueDeclaration ?? fn.declarations?.[0];
    if (!decl) continue;
    const signature = checker.getSignaturesOfType(checker.getTypeOfSymbolAtLocation(fn, decl), ts.SignatureKind.Call)[0];
    if (!signature) continue;
    const argsParam = signature.getParameters()[0];
    const argsType = argsParam ? checker.getTypeOfSymbolAtLocation(argsParam, decl) : undefined;
    const argsNonNull = argsType ? checker.getNonNullableType(argsType) : undefined;
    const promised = checker.getAwaitedType(signature.getReturnType()) ?? signature.getReturnType();
    const doc = oneLine(ts.displayPartsToString(signature.getDocumentationComment(checker)));
    const examples = signature
      .getJsDocTags()
      .filter((t) => t.name === "example")
      .map((t) => ts.displayPartsToString(t.text).trim());

    out.push(`### ${fn.name}`, "");
    if (doc) out.push(doc, "");
    for (const e of examples) out.push("```ts", e, "```", "");
    const argsName = argsNonNull ? checker.typeToString(argsNonNull, undefined, TYPE_FLAGS) : "none";
    const resultName = checker.typeToString(promised, undefined, TYPE_FLAGS);
    out.push(`Output form: \`${fn.name}Output\`. Arguments (\`${argsName}\`):`, "");
    const args = argsNonNull ? membersOf(checker, argsNonNull) : [];
    args.forEach((m) => refer(m.type));
    out.push(...memberTable("Argument", args), "");
    out.push(`Result (\`${resultName}\`):`, "");
    const fields = membersOf(checker, promised);
    fields.forEach((m) => refer(m.type));
    out.push(...memberTable("Field", fields), "");
  }

  if (referenced.length) out.push("## Types used by the results and arguments", "");
  // `referenced` grows while it is walked: nested types are documented after their users.
  for (let i = 0; i < referenced.length; i++) {
    const name = referenced[i] as string;
    const symbol = types.get(name) as ts.Symbol;
    const declared = checker.getDeclaredTypeOfSymbol(symbol);
    const doc = oneLine(ts.displayPartsToString(symbol.getDocumentationComment(checker)));
    out.push(`### ${name}`, "");
    if (doc) out.push(doc, "");
    if (symbol.flags & ts.SymbolFlags.TypeAlias && declared.isUnion() && declared.types.every((t) => t.isStringLiteral())) {
      out.push(`One of ${declared.types.map((t) => `\`${(t as ts.StringLiteralType).value}\``).join(", ")}.`, "");
      continue;
    }
    const fields = membersOf(checker, declared);
    fields.forEach((m) => refer(m.type));
    out.push(...memberTable("Field", fields), "");
  }
  return out.join("\n").replace(/\n+$/, "\n");
}

if (require.main === module) {
  // Compiled to dist-scripts/scripts/: the repository root is two levels above this file's folder.
  const root = path.resolve(__dirname, "../..");
  const file = path.join(root, API_REFERENCE_PATH);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, renderApiReference(root));
  process.stdout.write(`wrote ${API_REFERENCE_PATH}\n`);
}
