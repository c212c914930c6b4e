/**
 * The plugin's resource types: token, lifecycle and output shape of each.
 *
 * Why the computed outputs come from the schema: the schema is what generated SDKs expose, so
 * the outputs a preview marks unknown are exactly those the SDKs declare as output-only.
 */
import { k8sClusterUpgrade } from "../resources/k8sClusterUpgrade";
import type { ResourceLifecycle } from "../resources/lifecycle";
import { storageEvent } from "../resources/storageEvent";
import { TOKEN_PREFIX } from "./functions";
import { computedOutputsOf } from "./schema";
import type { OutputShape } from "./resourceAdapter";

/** One resource type the plugin serves. */
export interface PluginResourceType {
  readonly token: string;
  // Each lifecycle has its own input/output types; the plugin passes plain values.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly lifecycle: ResourceLifecycle<any, any>;
  readonly shape: OutputShape;
}

/** Lifecycles to serve instead of the production ones (tests shorten the task polling). */
export interface LifecycleOverrides {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly K8sClusterUpgrade?: ResourceLifecycle<any, any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly StorageEvent?: ResourceLifecycle<any, any>;
}

/** The served resource types by token. */
export function resourceTypes(overrides: LifecycleOverrides = {}): ReadonlyMap<string, PluginResourceType> {
  const types: PluginResourceType[] = [
    {
      token: `${TOKEN_PREFIX}K8sClusterUpgrade`,
      lifecycle: overrides.K8sClusterUpgrade ?? k8sClusterUpgrade,
      shape: { computed: computedOutputsOf(`${TOKEN_PREFIX}K8sClusterUpgrade`), keptOnUpdate: ["clusterId"] },
    },
    {
      token: `${TOKEN_PREFIX}StorageEvent`,
      lifecycle: overrides.StorageEvent ?? storageEvent,
      shape: { computed: computedOutputsOf(`${TOKEN_PREFIX}StorageEvent`), keptOnUpdate: ["uuid"] },
    },
  ];
  return new Map(types.map((t) => [t.token, t]));
}
