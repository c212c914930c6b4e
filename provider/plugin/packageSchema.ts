/**
 * The package schema the plugin serves (`GetSchema`), generated from the TypeScript SDK by
 * `tools/schema/generate.js`. The plugin reads its computed outputs from it, so a preview marks
 * unknown exactly the outputs the generated SDKs declare as output-only.
 */
import { CloudPlatformError } from "../api/errors";
import schemaJson from "./schema.json";

/** The parts of a resource's schema the plugin uses. */
interface ResourceSchema {
  readonly properties: Record<string, unknown>;
  readonly inputProperties: Record<string, unknown>;
}

const SCHEMA = schemaJson as unknown as { name: string; resources: Record<string, ResourceSchema>; functions: Record<string, unknown> };

/** The schema text sent to the engine. */
export const SCHEMA_TEXT = JSON.stringify(SCHEMA);

/** Output properties of `token` that are not inputs (what the provider computes). */
export function computedOutputsOf(token: string): string[] {
  const resource = SCHEMA.resources[token];
  if (!resource) throw new CloudPlatformError(`schema.json has no resource ${token}; regenerate it (make schema) after adding a resource type`);
  return Object.keys(resource.properties).filter((k) => !(k in resource.inputProperties));
}
