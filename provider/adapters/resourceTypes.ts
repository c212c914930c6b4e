/**
 * The registry of resource types both adapters serve: type name and lifecycle.
 *
 * Why one registry: the dynamic provider (the TypeScript SDK's classes) and the plugin (every
 * other language) must serve the same set of resources with the same lifecycles; a resource
 * added here is served by both, and tests swap a lifecycle (faster polling) in one place.
 */
import { k8sClusterUpgrade } from "../resources/k8sClusterUpgrade";
import type { ResourceLifecycle } from "../resources/lifecycle";
import { storageEvent } from "../resources/storageEvent";

// Each lifecycle has its own input/output types; adapters pass plain values.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyLifecycle = ResourceLifecycle<any, any>;

/** The production lifecycles by type name (the name the SDK class registers). */
export const RESOURCE_LIFECYCLES = {
  K8sClusterUpgrade: k8sClusterUpgrade as AnyLifecycle,
  StorageEvent: storageEvent as AnyLifecycle,
} as const;

/** A resource type served by both adapters. */
export type ResourceTypeName = keyof typeof RESOURCE_LIFECYCLES;

/** The type names, in a stable order. */
export const RESOURCE_TYPE_NAMES = Object.keys(RESOURCE_LIFECYCLES) as ResourceTypeName[];

/** Lifecycles to serve instead of the production ones (tests shorten the task polling). */
export type LifecycleOverrides = Partial<Record<ResourceTypeName, AnyLifecycle>>;

/** The lifecycle of each type, `overrides` first. */
export function lifecyclesWith(overrides: LifecycleOverrides = {}): Record<ResourceTypeName, AnyLifecycle> {
  return Object.fromEntries(RESOURCE_TYPE_NAMES.map((name) => [name, overrides[name] ?? RESOURCE_LIFECYCLES[name]])) as Record<ResourceTypeName, AnyLifecycle>;
}
