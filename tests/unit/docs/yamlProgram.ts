/**
 * A checker of Pulumi YAML programs against a provider's schema, for examples/yaml-quickstart.
 *
 * Why: a schema check runs in the unit tests, with no CLI, plugin or simulator (the YAML
 * example runs for real in tests/integration/yaml.test.ts). This finds what would make it fail
 * at `pulumi preview` before any request: an unknown resource type or function token, a property or argument the
 * schema does not have, a required input left out, a literal of the wrong type, and an
 * interpolation (`${name.property}`) whose name or property does not exist. It covers the parts
 * of Pulumi YAML the examples use (config with types and defaults, variables with `fn::invoke`,
 * resources with properties, outputs), not every builtin function.
 */

/** One property in the schema (`type`, or `$ref` to a type; `items` of an array). */
export interface SchemaProperty {
  type?: string;
  $ref?: string;
  items?: SchemaProperty;
}

type Properties = Record<string, SchemaProperty>;

/** The parts of a Pulumi package schema the checker reads. */
export interface PackageSchema {
  name: string;
  config?: { variables?: Properties };
  resources: Record<string, { properties: Properties; inputProperties: Properties; requiredInputs?: string[] }>;
  functions: Record<string, { inputs?: { properties?: Properties; required?: string[] }; outputs: { properties: Properties } }>;
  types?: Record<string, { properties?: Properties }>;
}

/** A value's type as far as the checker can tell; `unknown` is never reported. */
type ValueType = "string" | "integer" | "number" | "boolean" | "array" | "object" | "resource" | "unknown";

/** What a name in an interpolation stands for. */
type Symbol =
  | { kind: "config"; type: ValueType }
  | { kind: "invoke"; token: string; returns?: string }
  | { kind: "resource"; token: string }
  | { kind: "value" };

const INTERPOLATION = /\$\{([^}]*)\}/g;
/** Properties every resource has besides its schema's outputs. */
const RESOURCE_BUILTINS = new Set(["id", "urn"]);

/**
 * The problems of `program` (a parsed Pulumi.yaml) against `schema`, each naming where it is;
 * empty when the program uses only what the schema offers.
 */
export function checkYamlProgram(program: unknown, schema: PackageSchema): string[] {
  const problems: string[] = [];
  if (!isObject(program)) return ["the program is not a YAML mapping"];
  const runtime = isObject(program["runtime"]) ? program["runtime"]["name"] : program["runtime"];
  if (runtime !== "yaml") problems.push(`runtime is ${String(runtime)}, not yaml`);

  const symbols = new Map<string, Symbol>();
  for (const [name, spec] of Object.entries(asObject(program["config"]))) {
    symbols.set(name, { kind: "config", type: configType(spec) });
  }
  for (const [name, value] of Object.entries(asObject(program["variables"]))) {
    const invoke = isObject(value) ? value["fn::invoke"] : undefined;
    if (isObject(invoke)) {
      const returns = invoke["return"];
      symbols.set(name, { kind: "invoke", token: String(invoke["function"]), ...(typeof returns === "string" ? { returns } : {}) });
    } else symbols.set(name, { kind: "value" });
  }
  for (const [name, resource] of Object.entries(asObject(program["resources"]))) {
    symbols.set(name, { kind: "resource", token: String(asObject(resource)["type"]) });
  }

  const context: Context = { schema, symbols, problems };
  for (const [name, value] of Object.entries(asObject(program["variables"]))) {
    const invoke = isObject(value) ? value["fn::invoke"] : undefined;
    if (isObject(invoke)) checkInvoke(context, `variables.${name}`, invoke);
    else checkValue(context, `variables.${name}`, value, undefined);
  }
  for (const [name, resource] of Object.entries(asObject(program["resources"]))) {
    checkResource(context, `resources.${name}`, asObject(resource));
  }
  for (const [name, value] of Object.entries(asObject(program["outputs"]))) {
    checkValue(context, `outputs.${name}`, value, undefined);
  }
  return problems;
}

interface Context {
  schema: PackageSchema;
  symbols: Map<string, Symbol>;
  problems: string[];
}

function checkResource(c: Context, where: string, resource: Record<string, unknown>): void {
  const token = String(resource["type"]);
  const inputs = inputsOfResource(c.schema, token);
  if (!inputs) {
    c.problems.push(`${where}: unknown resource type ${token}`);
    return;
  }
  checkArguments(c, where, asObject(resource["properties"]), inputs.properties, inputs.required, "property");
}

function checkInvoke(c: Context, where: string, invoke: Record<string, unknown>): void {
  const token = String(invoke["function"]);
  const fn = c.schema.functions[token];
  if (!fn) {
    c.problems.push(`${where}: unknown function ${token}`);
    return;
  }
  checkArguments(c, `${where} (${token})`, asObject(invoke["arguments"]), fn.inputs?.properties ?? {}, fn.inputs?.required ?? [], "argument");
  const returns = invoke["return"];
  if (typeof returns === "string" && !(returns in fn.outputs.properties)) {
    c.problems.push(`${where}: ${token} has no result field ${returns}`);
  }
}

function checkArguments(c: Context, where: string, given: Record<string, unknown>, declared: Properties, required: string[], what: string): void {
  for (const [name, value] of Object.entries(given)) {
    const property = declared[name];
    if (!property) c.problems.push(`${where}: unknown ${what} ${name} (known: ${Object.keys(declared).sort().join(", ")})`);
    else checkValue(c, `${where}.${name}`, value, property);
  }
  for (const name of required) if (!(name in given)) c.problems.push(`${where}: required ${what} ${name} is not set`);
}

/** Checks `value` (a literal, an interpolated string, a list, an object) against `expected`. */
function checkValue(c: Context, where: string, value: unknown, expected: SchemaProperty | undefined): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => checkValue(c, `${where}[${i}]`, item, expected?.items));
    return expectType(c, where, "array", expected);
  }
  if (isObject(value)) {
    const invoke = value["fn::invoke"];
    if (isObject(invoke)) return checkInvoke(c, where, invoke);
    const fields = expected?.$ref ? typeProperties(c.schema, expected.$ref) : undefined;
    for (const [key, item] of Object.entries(value)) {
      if (fields && !(key in fields)) c.problems.push(`${where}: unknown field ${key}`);
      checkValue(c, `${where}.${key}`, item, fields?.[key]);
    }
    return expectType(c, where, "object", expected);
  }
  if (typeof value === "string") {
    const references = [...value.matchAll(INTERPOLATION)].map((m) => m[1] ?? "");
    const types = references.map((ref) => referenceType(c, where, ref));
    const whole = references.length === 1 && value.trim() === `\${${references[0]}}`;
    return expectType(c, where, whole ? (types[0] ?? "unknown") : "string", expected);
  }
  if (typeof value === "number") return expectType(c, where, Number.isInteger(value) ? "integer" : "number", expected);
  if (typeof value === "boolean") return expectType(c, where, "boolean", expected);
}

/** The type of `${reference}` (`name`, `name.property`, `name.property.field`), or a problem. */
function referenceType(c: Context, where: string, reference: string): ValueType {
  const [name = "", ...path] = reference.replace(/\[[^\]]*\]/g, "").split(".");
  const symbol = c.symbols.get(name);
  if (!symbol) {
    c.problems.push(`${where}: \${${reference}} names nothing (no config, variable or resource ${name})`);
    return "unknown";
  }
  if (symbol.kind === "value") return "unknown";
  if (symbol.kind === "config") {
    if (path.length > 0) c.problems.push(`${where}: \${${reference}}: config ${name} has no properties`);
    return symbol.type;
  }
  let properties: Properties | undefined;
  if (symbol.kind === "invoke") {
    const fn = c.schema.functions[symbol.token];
    if (!fn) return "unknown"; // reported where the variable is declared
    if (symbol.returns !== undefined) {
      if (path.length === 0) return typeOf(fn.outputs.properties[symbol.returns]);
      properties = typeFields(c.schema, fn.outputs.properties[symbol.returns]);
    } else {
      if (path.length === 0) return "object";
      properties = fn.outputs.properties;
    }
  } else {
    const resource = c.schema.resources[symbol.token];
    if (!resource) return "unknown";
    if (path.length === 0) return "resource";
    if (path.length === 1 && RESOURCE_BUILTINS.has(path[0] ?? "")) return "string";
    properties = resource.properties;
  }
  let type: ValueType = "unknown";
  for (const [i, step] of path.entries()) {
    if (!properties) return "unknown"; // inside an array or a map: not followed
    const property = properties[step];
    if (!property) {
      c.problems.push(`${where}: \${${reference}}: ${path.slice(0, i).join(".") || name} has no property ${step} (known: ${Object.keys(properties).sort().join(", ")})`);
      return "unknown";
    }
    type = typeOf(property);
    properties = typeFields(c.schema, property);
  }
  return type;
}

function expectType(c: Context, where: string, actual: ValueType, expected: SchemaProperty | undefined): void {
  const want = typeOf(expected);
  if (want === "unknown" || actual === "unknown") return;
  const fits = actual === want || (want === "number" && actual === "integer") || (want === "string" && actual === "resource");
  if (!fits) c.problems.push(`${where}: a ${actual} where the schema says ${want}`);
}

function inputsOfResource(schema: PackageSchema, token: string): { properties: Properties; required: string[] } | undefined {
  if (token === `pulumi:providers:${schema.name}`) return { properties: schema.config?.variables ?? {}, required: [] };
  const resource = schema.resources[token];
  return resource ? { properties: resource.inputProperties, required: resource.requiredInputs ?? [] } : undefined;
}

function typeOf(property: SchemaProperty | undefined): ValueType {
  if (!property) return "unknown";
  if (property.$ref) return "object";
  const t = property.type;
  return t === "string" || t === "integer" || t === "number" || t === "boolean" || t === "array" || t === "object" ? t : "unknown";
}

/** The fields of an object-typed property (`$ref` to a schema type), else undefined. */
function typeFields(schema: PackageSchema, property: SchemaProperty | undefined): Properties | undefined {
  return property?.$ref ? typeProperties(schema, property.$ref) : undefined;
}

function typeProperties(schema: PackageSchema, ref: string): Properties | undefined {
  const token = ref.replace(/^#\/types\//, "");
  return schema.types?.[token]?.properties;
}

/** A config entry's type: its `type`, else that of its default, else unknown. */
function configType(spec: unknown): ValueType {
  if (!isObject(spec)) return "unknown";
  const declared = spec["type"];
  if (typeof declared === "string") return typeOf({ type: declared.toLowerCase() === "int" ? "integer" : declared.toLowerCase() });
  const fallback = spec["default"];
  if (typeof fallback === "number") return Number.isInteger(fallback) ? "integer" : "number";
  if (typeof fallback === "string") return "string";
  if (typeof fallback === "boolean") return "boolean";
  return "unknown";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asObject(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}
