/**
 * The K8sClusterUpgrade lifecycle: bring an existing managed Kubernetes cluster to a version
 * (docs/resources/k8s-cluster-upgrade.md is the user's view).
 * - `check` never writes: it validates offline, then, once the cluster and version are known,
 *   reads the cluster and rejects a downgrade or an unreachable target at preview.
 * - `diff`: another cluster (project, region, name) replaces; any other input updates in place.
 *   The serialized provider is never compared, so a new build of this package causes no update.
 * - `create`/`update` converge the cluster (`k8s/upgrade.ts`); a failure throws, so the stack
 *   keeps the version it recorded.
 * - `read` reports the live version as output and input, so an upgrade done elsewhere shows as
 *   drift; only a well-formed 404 drops the resource (`absence.ts`).
 * - `delete` only forgets: a cluster is never downgraded or deleted.
 */
import { CloudPlatformError } from "../api/errors";
import { PresenceUnclearError } from "./absence";
import { describeCluster, readCluster } from "./k8s/clusterRead";
import type { CheckResult, DiffResult, LifecycleContext, ReadResult, ResourceLifecycle } from "./lifecycle";
import { checkAgainstCluster } from "./k8s/liveCheck";
import {
  IDENTITY_INPUTS,
  inputsOf,
  parseResourceId,
  resourceIdOf,
  soakSecondsOf,
  UPDATABLE_INPUTS,
  withInputDefaults,
  type K8sClusterUpgradeInputs,
  type K8sClusterUpgradeOutputs,
} from "./k8s/types";
import { upgradeCluster, type UpgradeRunnerOptions } from "./k8s/upgrade";
import { validateInputs } from "./k8s/validate";

export type { K8sClusterUpgradeInputs, K8sClusterUpgradeOutputs } from "./k8s/types";

/** A read whose state names no cluster and whose id is not one (a `pulumi import` of a wrong id). */
export class ClusterIdError extends CloudPlatformError {
  /** @internal */
  constructor(readonly id: string) {
    super(
      `K8sClusterUpgrade: cannot read resource ${JSON.stringify(id)}: its state names no cluster, and the id must be ` +
        "<projectId>/<regionId>/<clusterName>, such as 1/76/prod-cluster (the id `pulumi import` takes).",
    );
  }
}

/** Inputs that must be known before check may ask the API about the target. */
const LIVE_CHECK_INPUTS = ["projectId", "regionId", "clusterName", "version"] as const;

async function check(ctx: LifecycleContext, news: Record<string, unknown>, unknown: ReadonlySet<string>): Promise<CheckResult<K8sClusterUpgradeInputs>> {
  const { inputs, failures } = validateInputs(news, unknown);
  const liveCheckPossible = failures.length === 0 && LIVE_CHECK_INPUTS.every((k) => !unknown.has(k));
  if (!liveCheckPossible) return { inputs, failures };
  return { inputs, failures: await checkAgainstCluster(ctx, inputs, unknown.has("allowMultiStep")) };
}

async function diff(_id: string, olds: K8sClusterUpgradeOutputs, wanted: K8sClusterUpgradeInputs): Promise<DiffResult> {
  // Stored values of older states may lack the optional inputs: compare them with defaults.
  const o = withInputDefaults(olds);
  const replaces = IDENTITY_INPUTS.filter((k) => o[k] !== wanted[k]);
  const updates = UPDATABLE_INPUTS.filter((k) => (k === "soakSeconds" ? soakSecondsOf(o) !== soakSecondsOf(wanted) : o[k] !== wanted[k]));
  return {
    changes: replaces.length > 0 || updates.length > 0,
    ...(replaces.length ? { replaces: [...replaces] } : {}),
    ...(replaces.length || updates.length ? { diffs: [...replaces, ...updates] } : {}),
  };
}

async function read(ctx: LifecycleContext, id: string, outs: K8sClusterUpgradeOutputs): Promise<ReadResult<K8sClusterUpgradeInputs, K8sClusterUpgradeOutputs> | undefined> {
  const identity = outs.clusterName !== undefined ? outs : parseResourceId(id);
  if (!identity) throw new ClusterIdError(id);
  const found = await readCluster(ctx, identity.projectId, identity.regionId, identity.clusterName);
  if (found.state === "unclear") {
    throw new PresenceUnclearError(describeCluster(identity.projectId, identity.regionId, identity.clusterName), "the resource stays in the stack as recorded", found.reason, found.cause);
  }
  if (found.state === "absent") return undefined;
  const cluster = found.value;
  // The check that follows in `up --refresh` / `preview --refresh` may use this read.
  ctx.run.clusterReads.remember(identity.projectId, identity.regionId, cluster);
  const live: K8sClusterUpgradeOutputs = {
    ...inputsOf({ ...outs, ...identity, version: cluster.version }),
    clusterId: cluster.id,
    status: cluster.status,
    previousVersion: outs.previousVersion ?? cluster.version,
    upgradePath: outs.upgradePath ?? [],
    taskIds: outs.taskIds ?? [],
  };
  return { id, outs: live, inputs: inputsOf(live) };
}

/** Builds the lifecycle; unit tests pass a faster polling schedule or their own clock. */
export function createK8sClusterUpgradeLifecycle(options: UpgradeRunnerOptions = {}): ResourceLifecycle<K8sClusterUpgradeInputs, K8sClusterUpgradeOutputs> {
  return {
    typeName: "K8sClusterUpgrade",
    check,
    diff,
    create: async (ctx, wanted) => ({ id: resourceIdOf(wanted), outs: await upgradeCluster(ctx, wanted, options) }),
    read,
    update: async (ctx, _id, _olds, wanted) => upgradeCluster(ctx, wanted, options),
    delete: async (ctx, _id, outs) => {
      ctx.log(`${outs.clusterName}: removed from the stack only; the cluster keeps running ${outs.version}`);
    },
  };
}

/** The K8sClusterUpgrade lifecycle served by the dynamic provider and the plugin. */
export const k8sClusterUpgrade: ResourceLifecycle<K8sClusterUpgradeInputs, K8sClusterUpgradeOutputs> = createK8sClusterUpgradeLifecycle();
