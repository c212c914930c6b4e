/**
 * The plugin's resource types: token, lifecycle and output shape of each.
 *
 * Why the computed outputs come from the schema: the schema is what generated SDKs expose, so
 * the outputs a preview marks unknown are exactly those the SDKs declare as output-only. The
 * lifecycles themselves come from the registry both adapters share.
 */
import { lifecyclesWith, RESOURCE_TYPE_NAMES, type LifecycleOverrides } from "../adapters/resourceTypes";
import type { ResourceLifecycle } from "../resources/lifecycle";
import { TOKEN_PREFIX } from "./functions";
import { computedOutputsOf } from "./schema";
import type { OutputShape } from "./resourceAdapter";

export type { LifecycleOverrides } from "../adapters/resourceTypes";

/** One resource type the plugin serves. */
export interface PluginResourceType {
  readonly token: string;
  // Each lifecycle has its own input/output types; the plugin passes plain values.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly lifecycle: ResourceLifecycle<any, any>;
  readonly shape: OutputShape;
}

/** Computed outputs an update never changes (the server's id), by type name. */
const KEPT_ON_UPDATE: Record<(typeof RESOURCE_TYPE_NAMES)[number], readonly string[]> = {
  K8sClusterUpgrade: ["clusterId"],
  StorageEvent: ["uuid"],
};

/** The served resource types by token. */
export function resourceTypes(overrides: LifecycleOverrides = {}): ReadonlyMap<string, PluginResourceType> {
  const lifecycles = lifecyclesWith(overrides);
  return new Map(
    RESOURCE_TYPE_NAMES.map((name) => {
      const token = `${TOKEN_PREFIX}${name}`;
      return [token, { token, lifecycle: lifecycles[name], shape: { computed: computedOutputsOf(token), keptOnUpdate: KEPT_ON_UPDATE[name] } }];
    }),
  );
}
