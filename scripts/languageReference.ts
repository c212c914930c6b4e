/**
 * Generates `docs/api-python.md` and `docs/api-go.md`: every lookup's arguments and result fields
 * under the names the Python and Go SDKs give them, beside the schema's names.
 *
 * Why: docs/api.md is the TypeScript reference; a Python or Go user otherwise finds `has_k8s`,
 * `project_id` or `HasK8s` only in the generated SDK's source, and a test under mocks needs the
 * schema's names too (the mocks' `call` receives and returns those in every language). Generated
 * from provider/plugin/schema.json, the source of both SDKs, so the references cannot drift from
 * them; `make docs` rewrites the files and a unit test fails when they are stale.
 */
import * as fs from "fs";
import * as path from "path";

/** One property of the schema (an argument, a result field, a field of an object type). */
interface SchemaProperty {
  type?: string;
  items?: SchemaProperty;
  additionalProperties?: SchemaProperty;
  $ref?: string;
  description?: string;
}
interface SchemaObject {
  description?: string;
  properties?: Record<string, SchemaProperty>;
  required?: string[];
}
interface Schema {
  functions: Record<string, SchemaObject & { inputs?: SchemaObject; outputs?: SchemaObject }>;
  types: Record<string, SchemaObject>;
}

/** How one language names and types what the schema declares. */
export interface Language {
  readonly file: string;
  readonly title: string;
  readonly intro: readonly string[];
  /** A function's name and its Output form, from the schema's `getX`. */
  functionNames(name: string): [string, string];
  /** The arguments' type (absent: none) and the result's type of `getX`. */
  argsType(name: string): string | undefined;
  resultType(name: string): string;
  propertyName(name: string): string;
  propertyType(p: SchemaProperty, required: boolean): string;
}

/** Where the schema is, relative to the repository root. */
export const SCHEMA_PATH = "provider/plugin/schema.json";

const TYPE_REF = /^#\/types\/cloudplatform:index:(\w+)$/;
const upperFirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The schema type name of a `$ref`, or undefined for `pulumi.json#/Any`. */
function refName(ref: string): string | undefined {
  return TYPE_REF.exec(ref)?.[1];
}

/** Python's keywords: Pulumi's Python names add `_` to these (`from` -> `from_`). */
const PYTHON_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(" "),
);

/** `hasK8s` -> `has_k8s`, `maskSizeV6` -> `mask_size_v6`, `from` -> `from_` (Pulumi's Python names). */
export function pythonName(name: string): string {
  const snake = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
  return PYTHON_KEYWORDS.has(snake) ? `${snake}_` : snake;
}

function pythonType(p: SchemaProperty): string {
  if (p.$ref) return refName(p.$ref) ?? "Any";
  if (p.type === "array") return `Sequence[${pythonType(p.items ?? {})}]`;
  if (p.type === "object") return `Mapping[str, ${pythonType(p.additionalProperties ?? {})}]`;
  return { string: "str", integer: "int", number: "float", boolean: "bool" }[p.type ?? ""] ?? "Any";
}

function goType(p: SchemaProperty): string {
  if (p.$ref) return refName(p.$ref) ?? "interface{}";
  if (p.type === "array") return `[]${goType(p.items ?? {})}`;
  if (p.type === "object") return `map[string]${goType(p.additionalProperties ?? {})}`;
  return { string: "string", integer: "int", number: "float64", boolean: "bool" }[p.type ?? ""] ?? "interface{}";
}

export const PYTHON: Language = {
  file: "docs/api-python.md",
  title: "API reference: lookups in Python",
  intro: [
    "The lookups of the Python SDK (`pulumi_cloudplatform`, from `pulumi package add cloudplatform` or",
    "the package's wheel). Each comes in two forms with the same keyword arguments: `get_x(...)`",
    "returns the result, `get_x_output(...)` a `pulumi.Output` of it and takes each argument as a",
    "`pulumi.Input`. Result fields are attributes of the result (`region.display_name`).",
  ],
  functionNames: (name) => [pythonName(name), `${pythonName(name)}_output`],
  argsType: () => undefined,
  resultType: (name) => `${upperFirst(name)}Result`,
  propertyName: pythonName,
  propertyType: (p, required) => (required ? pythonType(p) : `Optional[${pythonType(p)}]`),
};

export const GO: Language = {
  file: "docs/api-go.md",
  title: "API reference: lookups in Go",
  intro: [
    "The lookups of the Go SDK (`github.com/pulumi-cloudplatform/pulumi-cloudplatform/sdk/go/cloudplatform`).",
    "Each comes in two forms: `GetX(ctx, &GetXArgs{...})` returns `(*GetXResult, error)`, and",
    "`GetXOutput(ctx, GetXOutputArgs{...})` a `GetXResultOutput` whose arguments are `pulumi.Input`s",
    "(`pulumi.String(...)`, `pulumi.IntPtr(...)`). A function without arguments takes none.",
  ],
  functionNames: (name) => [upperFirst(name), `${upperFirst(name)}Output`],
  argsType: (name) => `${upperFirst(name)}Args`,
  resultType: (name) => `${upperFirst(name)}Result`,
  propertyName: upperFirst,
  // Optional scalars and objects are pointers; slices and maps are not.
  propertyType: (p, required) => (required || p.type === "array" || p.type === "object" || (p.$ref && !refName(p.$ref)) ? goType(p) : `*${goType(p)}`),
};

/** Text on one line, for a table cell: pipes escaped. */
function cell(text: string | undefined): string {
  return (text ?? "").replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|").trim();
}

/** The schema type names `p` refers to. */
function refsOf(p: SchemaProperty): string[] {
  const own = p.$ref ? refName(p.$ref) : undefined;
  return [...(own ? [own] : []), ...(p.items ? refsOf(p.items) : []), ...(p.additionalProperties ? refsOf(p.additionalProperties) : [])];
}

/** The table of an object's properties; `refer` collects the types they use. */
function table(lang: Language, object: SchemaObject | undefined, kind: "Argument" | "Field", refer: (name: string) => void): string[] {
  const props = Object.entries(object?.properties ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (props.length === 0) return [kind === "Argument" ? "No arguments." : "No fields."];
  const required = new Set(object?.required ?? []);
  const lines = [`| ${kind} | Type | Schema name | ${kind === "Argument" ? "Required | " : ""}Meaning |`, `|---|---|---|${kind === "Argument" ? "---|" : ""}---|`];
  for (const [name, p] of props) {
    refsOf(p).forEach(refer);
    const req = kind === "Argument" ? `${required.has(name) ? "yes" : "no"} | ` : "";
    lines.push(`| \`${lang.propertyName(name)}\` | \`${lang.propertyType(p, required.has(name))}\` | \`${name}\` | ${req}${cell(p.description)} |`);
  }
  return lines;
}

/** One language's reference as Markdown, generated from the schema under `root`. */
export function renderLanguageReference(root: string, lang: Language): string {
  const schema = JSON.parse(fs.readFileSync(path.join(root, SCHEMA_PATH), "utf8")) as Schema;
  const functions = Object.entries(schema.functions)
    .map(([token, fn]) => ({ token, name: token.split(":")[2] as string, fn }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const referenced: string[] = [];
  const refer = (name: string): void => void (referenced.includes(name) || referenced.push(name));
  const out = [
    `# ${lang.title}`,
    "",
    "<!-- Generated by `make docs` (scripts/languageReference.ts) from provider/plugin/schema.json; do not edit by hand. A unit test fails when it is stale. -->",
    "",
    ...lang.intro,
    "",
    "The *Schema name* column is the name on the wire: Pulumi's mocks receive the arguments in",
    "`call` under those names and read the answer `call` returns under them, in every language",
    "([Testing your programs](guides/testing.md)). The TypeScript reference is [api.md](api.md);",
    "what each lookup does, in [Lookups](lookups.md).",
    "",
    "## Lookups",
    "",
    ...functions.map(({ name, token }) => `- [${lang.functionNames(name)[0]}](#${lang.functionNames(name)[0].toLowerCase()}) (\`${token}\`)`),
    "",
  ];
  for (const { token, name, fn } of functions) {
    const [plain, output] = lang.functionNames(name);
    const argsType = Object.keys(fn.inputs?.properties ?? {}).length ? lang.argsType(name) : undefined;
    out.push(`### ${plain}`, "", cell(fn.description), "", `Function \`${token}\`; Output form: \`${output}\`.`, "");
    out.push(argsType ? `Arguments (\`${argsType}\`):` : "Arguments:", "", ...table(lang, fn.inputs, "Argument", refer), "");
    out.push(`Result (\`${lang.resultType(name)}\`):`, "", ...table(lang, fn.outputs, "Field", refer), "");
  }
  if (referenced.length) out.push("## Types used by the results", "");
  // `referenced` grows while it is walked: nested types come after their users.
  for (let i = 0; i < referenced.length; i++) {
    const name = referenced[i] as string;
    const type = schema.types[`cloudplatform:index:${name}`];
    out.push(`### ${name}`, "", ...(type?.description ? [cell(type.description), ""] : []), ...table(lang, type, "Field", refer), "");
  }
  return out.join("\n").replace(/\n+$/, "\n");
}

if (require.main === module) {
  // Compiled to dist-scripts/scripts/: the repository root is two levels above this file's folder.
  const root = path.resolve(__dirname, "../..");
  for (const lang of [PYTHON, GO]) {
    fs.writeFileSync(path.join(root, lang.file), renderLanguageReference(root, lang));
    process.stdout.write(`wrote ${lang.file}\n`);
  }
}
