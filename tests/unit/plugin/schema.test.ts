/**
 * The plugin schema against its sources: `provider/plugin/schema.json` must be exactly what
 * `tools/schema/generate.js` builds from the TypeScript SDK now (so names, types and
 * descriptions cannot drift from the SDK), every field must be described, and the resources'
 * inputs must be those the lifecycles accept.
 */
import * as fs from "fs";
import { IDENTITY_FIELDS, INPUT_FIELDS } from "../../../provider/resources/storage/types";
import { IDENTITY_INPUTS, UPDATABLE_INPUTS } from "../../../provider/resources/k8s/types";
import { FUNCTIONS } from "../../../provider/plugin/functions";
import { CPU_BOUND_MS } from "../cpuBound";

interface Generator {
  schemaText(): string;
  SCHEMA_PATH: string;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = require("../../../tools/schema/generate.js") as Generator;

type Props = Record<string, { description?: string; type?: string; $ref?: string; replaceOnChanges?: boolean }>;
interface Schema {
  resources: Record<string, { description: string; properties: Props; inputProperties: Props }>;
  functions: Record<string, { description: string; inputs: { properties?: Props }; outputs: { properties: Props } }>;
  types: Record<string, { description: string; properties: Props }>;
}

const committed = fs.readFileSync(generator.SCHEMA_PATH, "utf8");
const schema = JSON.parse(committed) as Schema;

test("schema.json is what the generator builds from the TypeScript SDK (run `make schema` when this fails)", () => {
  expect(committed).toBe(generator.schemaText());
}, CPU_BOUND_MS);

test("every resource, input, output, function, argument, result field and type has a description", () => {
  const undocumented: string[] = [];
  const props = (where: string, p: Props) => {
    for (const [name, v] of Object.entries(p)) if (!v.description) undocumented.push(`${where}.${name}`);
  };
  for (const [token, r] of Object.entries(schema.resources)) {
    if (!r.description) undocumented.push(token);
    props(`${token} outputs`, r.properties);
    props(`${token} inputs`, r.inputProperties);
  }
  for (const [token, f] of Object.entries(schema.functions)) {
    if (!f.description) undocumented.push(token);
    props(`${token} args`, f.inputs.properties ?? {});
    props(`${token} result`, f.outputs.properties);
  }
  for (const [token, t] of Object.entries(schema.types)) {
    if (!t.description) undocumented.push(token);
    props(token, t.properties);
  }
  expect(undocumented).toEqual([]);
});

test("resource inputs are exactly what the lifecycles accept, functions exactly the served lookups", () => {
  const se = schema.resources["cloudplatform:index:StorageEvent"];
  expect(Object.keys(se?.inputProperties ?? {}).sort()).toEqual([...INPUT_FIELDS].sort());
  expect(se?.properties["adoptUuid"]?.type).toBe("string");
  expect(se?.properties["bytes"]?.type).toBe("integer");
  const k8s = schema.resources["cloudplatform:index:K8sClusterUpgrade"];
  expect(Object.keys(k8s?.inputProperties ?? {}).sort()).toEqual([...IDENTITY_INPUTS, ...UPDATABLE_INPUTS].sort());
  expect(Object.keys(schema.functions).sort()).toEqual([...FUNCTIONS.keys()].sort());
});

test("every identity input, whose change the lifecycle answers with a replace, is marked replaceOnChanges (input and output)", () => {
  const replacing = (token: string, which: "properties" | "inputProperties") =>
    Object.entries(schema.resources[token]?.[which] ?? {})
      .filter(([, p]) => p.replaceOnChanges === true)
      .map(([name]) => name)
      .sort();
  for (const which of ["properties", "inputProperties"] as const) {
    expect(replacing("cloudplatform:index:StorageEvent", which)).toEqual([...IDENTITY_FIELDS].sort());
    expect(replacing("cloudplatform:index:K8sClusterUpgrade", which)).toEqual([...IDENTITY_INPUTS].sort());
  }
});
