/**
 * The resources' offline input checks, for unit tests under Pulumi's mocks.
 *
 * Why: under mocks no provider runs, so a resource registers whatever inputs the program
 * computed, and a program whose `pulumi preview` would fail (a limit of the wrong kind, a
 * malformed version) passes its unit tests. These are the checks `preview` runs before it asks
 * the API anything, with the same messages; a mocks' `newResource` (or the test) calls them on
 * the inputs it received.
 */
import { unknownInputs } from "../../../provider/adapters/unknownValues";
import { RESOURCE_DEFINITIONS, RESOURCE_TYPE_NAMES, type ResourceTypeName } from "../../../provider/adapters/resourceDefinitions";
import type { CheckFailure } from "../../../provider/resources/lifecycle";

export type { CheckFailure };

/** The resource type named by a type token of either path, or undefined for any other token. */
function typeNameOf(token: string): ResourceTypeName | undefined {
  const m = /^(?:cloudplatform:index|pulumi-nodejs:dynamic\/cloudplatform):(\w+)$/.exec(token);
  const name = m?.[1];
  return (RESOURCE_TYPE_NAMES as readonly string[]).includes(name ?? "") ? (name as ResourceTypeName) : undefined;
}

/**
 * The input problems `pulumi preview` reports for a resource of `type` before asking the API,
 * each `{ property, reason }` with the preview's message; `[]` when there are none.
 *
 * `type` is the token a mocks' `newResource` receives: `pulumi-nodejs:dynamic/cloudplatform:StorageEvent`
 * from this package's classes without a provider, `cloudplatform:index:StorageEvent` from them with
 * a `cloudplatform` provider and from the plugin's SDKs. Any other type (the provider itself,
 * `pulumi:providers:cloudplatform`, or another package's resource) is not checked here and gets
 * `[]`, so a test can run every registration through it:
 * `for (const r of resources) expect(checkResourceInputs(r.type, r.inputs)).toEqual([])`.
 *
 * Not checked here, because they need the API: whether a K8sClusterUpgrade's cluster exists and
 * its target version can be reached (a downgrade, a version not offered); an integration test's
 * preview against the simulator covers those.
 */
export function checkResourceInputs(type: string, inputs: Record<string, unknown>): CheckFailure[] {
  const name = typeNameOf(type);
  if (!name) return [];
  return RESOURCE_DEFINITIONS[name].offlineCheck(inputs, unknownInputs(inputs));
}

