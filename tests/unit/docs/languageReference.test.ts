/**
 * docs/api-python.md and docs/api-go.md (the lookups' names in Python and Go) must be what
 * scripts/languageReference.ts makes from the current schema (`make docs` when this fails), and
 * the names and types they give must be the ones the generated SDKs (sdk/python, sdk/go) use.
 */
import * as fs from "fs";
import * as path from "path";
import { GO, PYTHON, pythonName, renderLanguageReference, SCHEMA_PATH } from "../../../scripts/languageReference";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const PY_SDK = path.join(REPO_ROOT, "sdk/python/pulumi_cloudplatform");
const GO_SDK = path.join(REPO_ROOT, "sdk/go/cloudplatform");

interface Obj {
  properties?: Record<string, unknown>;
  required?: string[];
}
const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, SCHEMA_PATH), "utf8")) as {
  functions: Record<string, { inputs?: Obj; outputs?: Obj }>;
  types: Record<string, Obj>;
};
const functionNames = Object.keys(schema.functions).map((token) => token.split(":")[2] as string);

test.each([PYTHON, GO])("$file is up to date with the schema (run `make docs` when this fails)", (lang) => {
  expect(fs.readFileSync(path.join(REPO_ROOT, lang.file), "utf8")).toBe(renderLanguageReference(REPO_ROOT, lang));
});

/** Every Go struct of the SDK: its fields by `pulumi:"..."` tag, as `Name Type`. */
function goStructs(): Map<string, Map<string, string>> {
  const structs = new Map<string, Map<string, string>>();
  for (const file of fs.readdirSync(GO_SDK).filter((f) => f.endsWith(".go"))) {
    const text = fs.readFileSync(path.join(GO_SDK, file), "utf8");
    for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
      const fields = new Map<string, string>();
      for (const f of (m[2] as string).matchAll(/^\t(\w+) (\S+) `pulumi:"(\w+)"`/gm)) fields.set(f[3] as string, `${f[1]} ${f[2]}`);
      structs.set(m[1] as string, fields);
    }
  }
  return structs;
}

/** What the reference gives for each property of `object`, as `Name Type` by schema name. */
function documented(object: Obj | undefined): Map<string, string> {
  const required = new Set(object?.required ?? []);
  return new Map(Object.entries(object?.properties ?? {}).map(([name, p]) => [name, `${GO.propertyName(name)} ${GO.propertyType(p as never, required.has(name))}`]));
}

test("the Go names and types are the Go SDK's: functions, argument and result structs, object types", () => {
  const structs = goStructs();
  const sdk = fs
    .readdirSync(GO_SDK)
    .filter((f) => f.endsWith(".go"))
    .map((f) => fs.readFileSync(path.join(GO_SDK, f), "utf8"))
    .join("\n");
  for (const name of functionNames) {
    const [plain, output] = GO.functionNames(name);
    expect(sdk).toContain(`func ${plain}(ctx *pulumi.Context`);
    expect(sdk).toContain(`func ${output}(ctx *pulumi.Context`);
    const fn = schema.functions[`cloudplatform:index:${name}`];
    if (Object.keys(fn?.inputs?.properties ?? {}).length) expect([name, structs.get(GO.argsType(name) as string)]).toEqual([name, documented(fn?.inputs)]);
    expect([name, structs.get(GO.resultType(name))]).toEqual([name, documented(fn?.outputs)]);
  }
  for (const [token, type] of Object.entries(schema.types)) {
    if (type.properties) expect([token, structs.get(token.split(":")[2] as string)]).toEqual([token, documented(type)]);
  }
});

test("the Python names are the Python SDK's: functions, keyword arguments, result attributes", () => {
  for (const name of functionNames) {
    const [plain, output] = PYTHON.functionNames(name);
    const text = fs.readFileSync(path.join(PY_SDK, `${pythonName(name)}.py`), "utf8");
    const fn = schema.functions[`cloudplatform:index:${name}`];
    for (const form of [plain, output]) {
      const signature = new RegExp(`^def ${form}\\(([\\s\\S]*?)\\) ->`, "m").exec(text)?.[1] ?? "";
      const params = [...signature.matchAll(/(\w+):/g)].map((m) => m[1]).filter((p) => p !== "opts");
      expect([form, params.sort()]).toEqual([form, Object.keys(fn?.inputs?.properties ?? {}).map(PYTHON.propertyName).sort()]);
    }
    const resultClass = new RegExp(`^class ${PYTHON.resultType(name)}:\\n([\\s\\S]*?)^class `, "m").exec(text)?.[1] ?? "";
    const attributes = [...resultClass.matchAll(/^ {4}def (\w+)\(self\)/gm)].map((m) => m[1]).sort();
    expect([name, attributes]).toEqual([name, Object.keys(fn?.outputs?.properties ?? {}).map(PYTHON.propertyName).sort()]);
  }
});
