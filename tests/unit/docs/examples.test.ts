/**
 * The quickstart in every language (examples/quickstart, python-quickstart, go-quickstart,
 * yaml-quickstart) without running them: the YAML program against the plugin's schema, and all
 * four declaring the same resources, config with the same defaults, and the same outputs, so
 * they do not drift apart. The Python and Go programs run against the simulator in
 * tests/integration/languageExamples.test.ts, the TypeScript one in
 * tests/integration/examples.test.ts, the YAML one in tests/integration/yaml.test.ts.
 */
import * as fs from "fs";
import * as path from "path";
import { checkYamlProgram, type PackageSchema } from "./yamlProgram";

// The parser @pulumi/pulumi's Automation API reads Pulumi.yaml with (a dev dependency for this).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { load: parseYaml } = require("js-yaml") as { load(text: string): unknown };

const REPO_ROOT = path.resolve(__dirname, "../../..");
const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
const schema = JSON.parse(read("provider/plugin/schema.json")) as PackageSchema;
const yamlProgram = parseYaml(read("examples/yaml-quickstart/Pulumi.yaml")) as Record<string, Record<string, unknown>>;

describe("examples/yaml-quickstart against provider/plugin/schema.json", () => {
  it("names only types, functions and properties the schema has, and sets every required input", () => {
    expect(checkYamlProgram(yamlProgram, schema)).toEqual([]);
  });

  it("uses both resources and the lookups the quickstart uses", () => {
    const types = Object.values(yamlProgram["resources"] ?? {}).map((r) => (r as { type: string }).type);
    expect(new Set(types)).toEqual(new Set(["cloudplatform:index:K8sClusterUpgrade", "cloudplatform:index:StorageEvent"]));
    const functions = Object.values(yamlProgram["variables"] ?? {}).map((v) => (v as { "fn::invoke": { function: string } })["fn::invoke"].function);
    expect(functions.sort()).toEqual(["cloudplatform:index:getK8sClusters", "cloudplatform:index:getProject", "cloudplatform:index:getRegion"]);
  });

  // The checker itself can fail: each broken copy of the example must be reported.
  const broken: Array<[string, (p: any) => void, RegExp]> = [
    ["an unknown resource type", (p) => (p.resources["cluster-version"].type = "cloudplatform:index:K8sClusterUpgrades"), /unknown resource type/],
    ["an unknown property", (p) => (p.resources["storage-space"].properties.byte = 1), /unknown property byte/],
    ["a required input left out", (p) => delete p.resources["cluster-version"].properties.clusterName, /required property clusterName is not set/],
    ["a literal of the wrong type", (p) => (p.resources["storage-space"].properties.bytes = "500GiB"), /a string where the schema says number/],
    ["an unknown function", (p) => (p.variables.project["fn::invoke"].function = "cloudplatform:index:getProjectz"), /unknown function/],
    ["an unknown argument", (p) => (p.variables.region["fn::invoke"].arguments.hasK8 = true), /unknown argument hasK8/],
    ["a required argument left out", (p) => delete p.variables.clusters["fn::invoke"].arguments.regionId, /required argument regionId is not set/],
    ["an unknown result field", (p) => (p.outputs.projectName = "${project.title}"), /has no property title/],
    ["an unknown output of a resource", (p) => (p.outputs.clusterRunning = "${cluster-version.running}"), /has no property running/],
    ["a name that is nowhere", (p) => (p.resources["cluster-version"].properties.clusterName = "${clusterNam}"), /names nothing/],
    ["a reference of the wrong type", (p) => (p.resources["cluster-version"].properties.projectId = "${project.name}"), /a string where the schema says integer/],
  ];
  it.each(broken)("reports %s", (_what, breakIt, message) => {
    const copy = structuredClone(yamlProgram);
    breakIt(copy);
    expect(checkYamlProgram(copy, schema).join("\n")).toMatch(message);
  });
});

/** What one quickstart declares, read from its source. */
interface Declared {
  /** Resource name -> resource type (the type's last part). */
  resources: Record<string, string>;
  /** Config key -> default. */
  config: Record<string, string>;
  outputs: string[];
}

const all = (text: string, re: RegExp) => [...text.matchAll(re)];

function typescript(): Declared {
  const src = read("examples/quickstart/index.ts");
  return {
    resources: Object.fromEntries(all(src, /new cloud\.(\w+)\("([\w-]+)"/g).map((m) => [m[2], m[1]])),
    config: Object.fromEntries(all(src, /config\.get\("(\w+)"\) \?\? "([^"]*)"/g).map((m) => [m[1], m[2]])),
    outputs: all(src, /^export const (\w+)/gm).map((m) => m[1] ?? ""),
  };
}

function python(): Declared {
  const src = read("examples/python-quickstart/__main__.py");
  return {
    resources: Object.fromEntries(all(src, /cloudplatform\.([A-Z]\w+)\(\s*"([\w-]+)"/g).map((m) => [m[2], m[1]])),
    config: Object.fromEntries(all(src, /config\.get\("(\w+)"\) or "([^"]*)"/g).map((m) => [m[1], m[2]])),
    outputs: all(src, /pulumi\.export\("(\w+)"/g).map((m) => m[1] ?? ""),
  };
}

function go(): Declared {
  const src = read("examples/go-quickstart/main.go");
  return {
    resources: Object.fromEntries(all(src, /cloudplatform\.New(\w+)\(ctx, "([\w-]+)"/g).map((m) => [m[2], m[1]])),
    config: Object.fromEntries(all(src, /valueOr\(cfg\.Get\("(\w+)"\), "([^"]*)"\)/g).map((m) => [m[1], m[2]])),
    outputs: all(src, /ctx\.Export\("(\w+)"/g).map((m) => m[1] ?? ""),
  };
}

function yaml(): Declared {
  const resources = yamlProgram["resources"] as Record<string, { type: string }>;
  const config = yamlProgram["config"] as Record<string, { default: string }>;
  return {
    resources: Object.fromEntries(Object.entries(resources).map(([name, r]) => [name, r.type.split(":").pop() ?? ""])),
    config: Object.fromEntries(Object.entries(config).map(([key, c]) => [key, String(c.default)])),
    outputs: Object.keys(yamlProgram["outputs"] ?? {}),
  };
}

describe("the quickstart in every language", () => {
  const reference = typescript();

  it("reads the TypeScript quickstart (the reference) completely", () => {
    expect(Object.keys(reference.resources)).toHaveLength(3);
    expect(Object.keys(reference.config)).toHaveLength(5);
    expect(reference.outputs.length).toBeGreaterThanOrEqual(9);
  });

  it.each([
    ["python", python],
    ["go", go],
    ["yaml", yaml],
  ])("%s declares the same resources, config defaults and outputs", (_language, declared) => {
    const d = declared();
    expect(d.resources).toEqual(reference.resources);
    expect(d.config).toEqual(reference.config);
    expect([...d.outputs].sort()).toEqual([...reference.outputs].sort());
  });
});
