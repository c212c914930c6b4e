/**
 * A lookup's answer from the engine's invoke (the plugin, or Pulumi's mocks) in the lookup's own
 * result type (internal; not re-exported).
 *
 * Why: the TypeScript result types say `null` for a field the API did not send (`state:
 * string | null`), and the in-process lookups return exactly that. The plugin's answer carries
 * every field, its `null`s included, but a mock's `call` returns only the fields a test cares
 * about. So every optional field the plugin's schema declares, at every level, reads `null`
 * when absent: a program sees the same shape on every path. Required fields and values that are
 * present pass through unchanged.
 */
import schemaJson from "../../../provider/plugin/schema.json";

/** The part of a schema type this conversion reads. */
interface SchemaNode {
  readonly type?: string;
  readonly $ref?: string;
  readonly items?: SchemaNode;
  readonly additionalProperties?: SchemaNode;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
}

const SCHEMA = schemaJson as unknown as {
  readonly functions: Readonly<Record<string, { readonly outputs: SchemaNode }>>;
  readonly types: Readonly<Record<string, SchemaNode>>;
};

const LOCAL_TYPE = "#/types/";

/** Whether the plugin's schema has the function `token` (every lookup has one). */
export function schemaHasFunction(token: string): boolean {
  return Object.prototype.hasOwnProperty.call(SCHEMA.functions, token);
}

/** `value` shaped as `node` says: objects completed with `null`s, lists and maps element-wise. */
function shaped(value: unknown, node: SchemaNode): unknown {
  if (value === null || value === undefined) return value;
  if (node.$ref?.startsWith(LOCAL_TYPE)) {
    const type = SCHEMA.types[node.$ref.slice(LOCAL_TYPE.length)];
    return type ? shaped(value, type) : value;
  }
  if (Array.isArray(value)) return node.items ? value.map((v: unknown) => shaped(v, node.items as SchemaNode)) : value;
  if (typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (node.properties) return objectShaped(record, node);
  if (node.additionalProperties) {
    const item = node.additionalProperties;
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, shaped(v, item)]));
  }
  return value;
}

/** An object with every declared property: absent optional ones `null`, the rest shaped. */
function objectShaped(record: Record<string, unknown>, node: SchemaNode): Record<string, unknown> {
  const required = new Set(node.required ?? []);
  const out: Record<string, unknown> = { ...record };
  for (const [name, prop] of Object.entries(node.properties ?? {})) {
    const v = record[name];
    if (v === undefined) {
      if (!required.has(name)) out[name] = null;
      continue;
    }
    out[name] = shaped(v, prop);
  }
  return out;
}

/**
 * The engine's answer to the function `token` as the lookup's result: what the plugin (or a
 * mock) returned, with every optional field of the schema that is absent set to `null`.
 */
export function resultFromEngine(token: string, answer: unknown): unknown {
  const fn = SCHEMA.functions[token];
  const record = answer !== null && typeof answer === "object" && !Array.isArray(answer) ? (answer as Record<string, unknown>) : {};
  return fn ? objectShaped(record, fn.outputs) : record;
}
