/**
 * The plugin schema against its sources: `provider/plugin/schema.json` must be exactly what
 * `tools/schema/generate.js` builds from the TypeScript SDK now (so names, types and
 * descriptions cannot drift from the SDK), every field must be described, and the resources'
 * inputs must be those the lifecycles accept.
 */
import * as fs from "fs";
import { IDENTITY_FIELDS, INPUT_FIELDS } from "../../../provider/resources/storage/types";
import { IDENTITY_INPUTS, UPDATABLE_INPUTS } from "../../../provider/resources/k8s/types";
import { lifecycleOf, RESOURCE_DEFINITIONS, RESOURCE_TYPE_NAMES, type ResourceTypeName } from "../../../provider/adapters/resourceDefinitions";
import { FUNCTIONS } from "../../../provider/plugin/functions";
import { computedOutputsOf } from "../../../provider/plugin/packageSchema";
import { CloudPlatformError } from "../../../provider/api";
import { CPU_BOUND_MS } from "../cpuBound";

interface Generator {
  schemaText(options?: { wideAsInteger?: boolean }): string;
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
  // 64-bit on the wire (uint64): `number`, since Pulumi's `integer` is a 32-bit Integer in Java and C#.
  expect(se?.properties["bytes"]?.type).toBe("number");
  const k8s = schema.resources["cloudplatform:index:K8sClusterUpgrade"];
  expect(Object.keys(k8s?.inputProperties ?? {}).sort()).toEqual([...IDENTITY_INPUTS, ...UPDATABLE_INPUTS].sort());
  expect(Object.keys(schema.functions).sort()).toEqual([...FUNCTIONS.keys()].sort());
});

const DEFINED = RESOURCE_TYPE_NAMES.map((name) => [name, RESOURCE_DEFINITIONS[name]] as const);

/** The names of a resource's `which` properties whose schema has `pick`. */
function namesWhere(token: string, which: "properties" | "inputProperties", pick: (p: Props[string]) => boolean): string[] {
  return Object.entries(schema.resources[token]?.[which] ?? {})
    .filter(([, p]) => pick(p))
    .map(([name]) => name)
    .sort();
}

test.each(DEFINED)("%s: the identity inputs of its definition (its diff's replaces) are marked replaceOnChanges, input and output", (name, def) => {
  for (const which of ["properties", "inputProperties"] as const) {
    expect(namesWhere(`cloudplatform:index:${name}`, which, (p) => p.replaceOnChanges === true)).toEqual([...def.replaceOnChanges].sort());
  }
});

test.each(DEFINED)("%s: its numbers are integers exactly where its definition says so, wide ones `number`", (name, def) => {
  const wide: readonly string[] = def.wideIntegerInputs;
  for (const which of ["properties", "inputProperties"] as const) {
    const narrow = def.integerInputs.filter((n) => !wide.includes(n));
    expect(namesWhere(`cloudplatform:index:${name}`, which, (p) => p.type === "integer")).toEqual([...narrow].sort());
    for (const n of wide) expect(schema.resources[`cloudplatform:index:${name}`]?.[which][n]?.type).toBe("number");
  }
});

test("the Go and Python SDKs' view keeps every integer input `integer`, the `int` 0.1.0 shipped, and differs in nothing else", () => {
  const view = JSON.parse(generator.schemaText({ wideAsInteger: true })) as Schema;
  for (const [name, def] of DEFINED) {
    for (const which of ["properties", "inputProperties"] as const) {
      const integers = Object.entries(view.resources[`cloudplatform:index:${name}`]?.[which] ?? {}).filter(([, p]) => p.type === "integer");
      expect(integers.map(([n]) => n).sort()).toEqual([...def.integerInputs].sort());
    }
  }
  const widened = JSON.parse(committed) as Schema;
  for (const [name, def] of DEFINED) {
    for (const n of def.wideIntegerInputs) {
      for (const which of ["properties", "inputProperties"] as const) {
        const p = widened.resources[`cloudplatform:index:${name}`]?.[which][n];
        if (p) p.type = "integer";
      }
    }
  }
  expect(view).toEqual(widened);
}, CPU_BOUND_MS);

/** Stored outputs of each resource, every input set. */
const STORED: Record<ResourceTypeName, Record<string, unknown>> = {
  K8sClusterUpgrade: {
    ...{ projectId: 1, regionId: 76, clusterName: "demo", version: "v1.31.2", allowMultiStep: false, timeoutMinutes: 60, soakSeconds: 0 },
    ...{ clusterId: "c-1", status: "Provisioned", previousVersion: "v1.31.2", upgradePath: [], taskIds: [] },
  },
  StorageEvent: { name: "reaching_used_space", storageName: "media", bucketName: "photos", bytes: 10, count: 0, clientId: 42, adoptUuid: "u-0", uuid: "u-1" },
};

/** Another value of the same kind. */
function other(value: unknown): unknown {
  if (typeof value === "number") return value + 1;
  if (typeof value === "boolean") return !value;
  return `${String(value)}-other`;
}

const INPUTS = DEFINED.flatMap(([name]) => Object.keys(schema.resources[`cloudplatform:index:${name}`]?.inputProperties ?? {}).map((input) => [name, input] as const));

test.each(INPUTS)("%s: a change of %s alone replaces exactly when the definition names it", async (name, input) => {
  const olds = STORED[name];
  const result = await lifecycleOf(name).diff("id-1", olds, { ...olds, [input]: other(olds[input]) });
  expect(result.replaces ?? []).toEqual((RESOURCE_DEFINITIONS[name].replaceOnChanges as readonly string[]).includes(input) ? [input] : []);
});

test("a resource type missing from the schema is a CloudPlatformError saying to regenerate it", () => {
  expect(computedOutputsOf("cloudplatform:index:StorageEvent")).toContain("uuid");
  expect(() => computedOutputsOf("cloudplatform:index:Nothing")).toThrow(CloudPlatformError);
  expect(() => computedOutputsOf("cloudplatform:index:Nothing")).toThrow("schema.json has no resource cloudplatform:index:Nothing; regenerate it (make schema)");
});
