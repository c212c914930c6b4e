/**
 * The Pulumi programs the benchmarks run (inline programs: they run in the bench process, the
 * resources' providers in the engine's dynamic-provider process).
 */
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import * as cloud from "pulumi-cloudplatform";
import { Noop } from "./baseline";

/** `count` no-op baseline resources; `suffix()` is read at each run (a change updates every one). */
export function noopProgram(count: number, suffix: () => string = () => ""): PulumiFn {
  return async () => {
    const s = suffix();
    for (let i = 0; i < count; i++) new Noop(`noop-${i}`, { value: `v${i}${s}` });
  };
}

/**
 * `count` StorageEvents on storage `storage` (one bucket each, so every identity is distinct).
 * `limit()` is read at each run, so a test can change the limit between runs.
 */
export function storageEventProgram(count: number, storage: string, limit: () => number = () => 1_000_000): PulumiFn {
  return async () => {
    const bytes = limit();
    for (let i = 0; i < count; i++) {
      new cloud.StorageEvent(`event-${i}`, {
        name: "reaching_used_space",
        storageName: storage,
        bucketName: `bucket-${i}`,
        bytes: bytes + i,
      });
    }
  };
}

/** One K8sClusterUpgrade of a seed cluster of project 1, region 76. */
export function upgradeProgram(clusterName: string, version: string): PulumiFn {
  return async () => {
    const upgrade = new cloud.K8sClusterUpgrade("upgrade", { projectId: 1, regionId: 76, clusterName, version });
    return { version: upgrade.version };
  };
}

/** A resource of the native plugin by schema token, as a generated SDK's class registers it. */
class PluginResource extends pulumi.CustomResource {
  constructor(token: string, name: string, props: pulumi.Inputs) {
    super(token, name, props);
  }
}

/** `count` StorageEvents through the native plugin (`cloudplatform:index:StorageEvent`); `limit()` as above. */
export function pluginStorageEventProgram(count: number, storage: string, limit: () => number = () => 1_000_000): PulumiFn {
  return async () => {
    const bytes = limit();
    for (let i = 0; i < count; i++) {
      new PluginResource("cloudplatform:index:StorageEvent", `event-${i}`, {
        name: "reaching_used_space",
        storageName: storage,
        bucketName: `bucket-${i}`,
        bytes: bytes + i,
        uuid: undefined,
      });
    }
  };
}
