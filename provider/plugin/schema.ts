/**
 * The package schema the plugin serves (`GetSchema`) and the facts the plugin reads from it.
 *
 * Why the plugin reads the schema: one source of truth for what is an input and what is a
 * computed output, shared with the generated SDKs. `schema.json` is generated from the
 * TypeScript SDK's types and TSDoc by `tools/schema/generate.js`; a unit test fails when it is stale.
 */
import schemaJson from "./schema.json";

/** The parts of a resource's schema the plugin uses. */
interface ResourceSchema {
  readonly properties: Record<string, unknown>;
  readonly inputProperties: Record<string, unknown>;
}

/** The schema as parsed JSON. */
export const SCHEMA = schemaJson as unknown as { name: string; resources: Record<string, ResourceSchema>; functions: Record<string, unknown> };

/** The schema text sent to the engine. */
export const SCHEMA_TEXT = JSON.stringify(SCHEMA);

/** Output properties of `token` that are not inputs (what the provider computes). */
export function computedOutputsOf(token: string): string[] {
  const resource = SCHEMA.resources[token];
  if (!resource) throw new Error(`schema.json has no resource ${token}`);
  return Object.keys(resource.properties).filter((k) => !(k in resource.inputProperties));
}
