/**
 * Every resource type the provider serves, each defined once: both adapters serve its
 * lifecycle, `pulumi-cloudplatform/testing` runs its offline check, and `tools/schema/generate.js`
 * reads its name lists from this file (with the SDK class in `sdk/nodejs/<type>.ts`) into the
 * schema. Lists are written `as const`: the generator reads them from their types.
 */
import { k8sClusterUpgrade } from "../resources/k8sClusterUpgrade";
import { IDENTITY_INPUTS, type K8sClusterUpgradeInputs, type K8sClusterUpgradeOutputs } from "../resources/k8s/types";
import { validateInputs } from "../resources/k8s/validate";
import type { CheckFailure, ResourceLifecycle } from "../resources/lifecycle";
import { IDENTITY_FIELDS, type StorageEventInputs, type StorageEventOutputs } from "../resources/storage/types";
import { checkStorageEventInputs } from "../resources/storage/validation";
import { storageEvent } from "../resources/storageEvent";

// Each lifecycle has its own input/output types; adapters pass plain values.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyLifecycle = ResourceLifecycle<any, any>;

/** One resource type; every name it lists is checked against the lifecycle's inputs and outputs. */
export interface ResourceDefinition<I, O> {
  readonly lifecycle: ResourceLifecycle<I, O>;
  /** Inputs whose change the lifecycle's diff answers with a replace (the schema's `replaceOnChanges`). */
  readonly replaceOnChanges: readonly (keyof I & string)[];
  /** Number inputs that are whole numbers: `integer` in the schema (the SDK's types say only `number`). */
  readonly integerInputs: readonly (keyof I & string)[];
  /**
   * The integer inputs whose range passes 2^31 (the API's uint64/int64): `number` in the schema,
   * since Pulumi's `integer` is a 32-bit `Integer`/`int` in Java and C#; the Go and Python SDKs
   * keep the `int` 0.1.0 shipped. Safe integers either way (the check refuses the rest).
   */
  readonly wideIntegerInputs: readonly (keyof I & string)[];
  /** Computed outputs an update never changes (the server's id): known in the plugin's preview of an update. */
  readonly keptOnUpdate: readonly Exclude<keyof O & string, keyof I>[];
  /** The failures `check` reports without asking the API. */
  offlineCheck(inputs: Record<string, unknown>, unknown: ReadonlySet<string>): CheckFailure[];
}

/** The resource types by type name (the name the SDK class registers). */
export const RESOURCE_DEFINITIONS = {
  K8sClusterUpgrade: {
    lifecycle: k8sClusterUpgrade,
    replaceOnChanges: IDENTITY_INPUTS,
    integerInputs: ["projectId", "regionId", "timeoutMinutes", "soakSeconds"] as const,
    wideIntegerInputs: [] as const,
    keptOnUpdate: ["clusterId"] as const,
    offlineCheck: (inputs, unknown) => validateInputs(inputs, unknown).failures,
  } satisfies ResourceDefinition<K8sClusterUpgradeInputs, K8sClusterUpgradeOutputs>,
  StorageEvent: {
    lifecycle: storageEvent,
    replaceOnChanges: IDENTITY_FIELDS,
    integerInputs: ["bytes", "count", "clientId"] as const,
    wideIntegerInputs: ["bytes", "count", "clientId"] as const,
    keptOnUpdate: ["uuid"] as const,
    offlineCheck: (inputs, unknown) => checkStorageEventInputs(inputs, unknown).failures,
  } satisfies ResourceDefinition<StorageEventInputs, StorageEventOutputs>,
};

/** A resource type served by both adapters. */
export type ResourceTypeName = keyof typeof RESOURCE_DEFINITIONS;

/** The type names, in a stable order. */
export const RESOURCE_TYPE_NAMES = Object.keys(RESOURCE_DEFINITIONS) as ResourceTypeName[];

/** Lifecycles to serve instead of the production ones (tests shorten the task polling). */
export type LifecycleOverrides = Partial<Record<ResourceTypeName, AnyLifecycle>>;

/** The lifecycle that serves `name`, `overrides` first. */
export function lifecycleOf(name: ResourceTypeName, overrides: LifecycleOverrides = {}): AnyLifecycle {
  return overrides[name] ?? RESOURCE_DEFINITIONS[name].lifecycle;
}
