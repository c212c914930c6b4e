/**
 * `K8sClusterUpgrade`: keeps an existing managed Kubernetes cluster at a declared version.
 *
 * Why a resource and not a script: the version lives in the stack, so `pulumi preview` shows a
 * planned upgrade (and rejects an impossible one before anything is written), `pulumi up`
 * performs it one permitted minor step at a time, and `pulumi preview --refresh` shows an
 * upgrade done elsewhere as drift. The cluster itself is never created, downgraded or deleted.
 */
import * as pulumi from "@pulumi/pulumi";
import { registrationOf } from "./internal/registration";

/** Arguments of {@link K8sClusterUpgrade}. */
export interface K8sClusterUpgradeArgs {
  /** Project id of the cluster. Changing it addresses another cluster, so it replaces the resource. */
  projectId: pulumi.Input<number>;
  /** Region id of the cluster. Changing it replaces the resource. */
  regionId: pulumi.Input<number>;
  /** The cluster's name (its identifier in the API). Changing it replaces the resource. */
  clusterName: pulumi.Input<string>;
  /**
   * The version the cluster must run, `v<major>.<minor>.<patch>` (e.g. `v1.31.2`). Raising it
   * upgrades in place. Preview rejects a malformed value, a downgrade (a cluster is never
   * downgraded) and a version not reachable from the live one, naming the permitted versions.
   */
  version: pulumi.Input<string>;
  /**
   * Allow one `up` to chain several one-minor upgrades (e.g. v1.28 -> v1.29 -> v1.30). Default
   * false: the target must be one of the versions the API permits now. The API tells only the
   * next permitted version, so preview checks that the target is a later minor of the same
   * major and that a first step towards it exists; the exact patch of the last step is checked
   * when that step is reached. Changing it alone changes nothing on the cluster.
   */
  allowMultiStep?: pulumi.Input<boolean>;
  /**
   * How long to wait for each upgrade step, in minutes (default 60): its task, then the cluster
   * becoming healthy at the new version. When it passes the up fails; the task goes on in the
   * API and the next up waits for it instead of starting another. Changing it alone changes
   * nothing on the cluster.
   */
  timeoutMinutes?: pulumi.Input<number>;
  /**
   * How long the upgraded cluster must stay healthy before the resource reports success, in
   * seconds (a whole number from 0 to 86400; default 0: success as soon as it is healthy).
   * Healthy: `Provisioned` at the new version, every pool `Running` with its node count. If the
   * cluster or a pool leaves that state meanwhile, the up fails, the stack records the version
   * reached, and resources that depend on this one (the next wave of a fleet) are not run. With
   * it set, every create or update also waits for and watches the cluster when no upgrade was
   * needed (the run after a failed watch repeats it). Changing it alone changes nothing on the
   * cluster.
   */
  soakSeconds?: pulumi.Input<number>;
}

/**
 * Brings an existing cluster to `version` and keeps it there: no API write when it already
 * runs that version; otherwise preview checks that the project's quota holds the rolling
 * replacement, and up follows the permitted upgrade versions step by step, waits for each task
 * (progress appears in the `pulumi up` output) and for the cluster to be healthy at the new
 * version (`Provisioned`, every pool `Running` with its nodes), then, with `soakSeconds`,
 * watches it stay so. If an upgrade is already running (an interrupted `up`), it waits for that
 * one instead of starting a second. Deleting the resource only removes it from the stack.
 */
export class K8sClusterUpgrade extends pulumi.CustomResource {
  /** Project id of the cluster. */
  declare readonly projectId: pulumi.Output<number>;
  /** Region id of the cluster. */
  declare readonly regionId: pulumi.Output<number>;
  /** The cluster's name. */
  declare readonly clusterName: pulumi.Output<string>;
  /** The version the cluster runs (after a refresh: the live version). */
  declare readonly version: pulumi.Output<string>;
  /** Whether several upgrade steps are allowed in one up. */
  declare readonly allowMultiStep: pulumi.Output<boolean>;
  /** How long to wait for each upgrade step (its task and the cluster's health), in minutes. */
  declare readonly timeoutMinutes: pulumi.Output<number>;
  /**
   * How long the upgraded cluster stayed healthy before success, in seconds: the declared
   * `soakSeconds`, or 0 after a failed upgrade or watch (the next up then watches again).
   */
  declare readonly soakSeconds: pulumi.Output<number>;
  /** The cluster's UUID. */
  declare readonly clusterId: pulumi.Output<string>;
  /** The cluster status as last read (`Provisioned` after a finished upgrade). */
  declare readonly status: pulumi.Output<string>;
  /** The version the cluster had when the last create/update began. */
  declare readonly previousVersion: pulumi.Output<string>;
  /** Versions the last create/update stepped through, in order ([] when none). */
  declare readonly upgradePath: pulumi.Output<string[]>;
  /** Ids of the upgrade tasks the last create/update waited for, in order. */
  declare readonly taskIds: pulumi.Output<string[]>;

  /**
   * @param name The logical name of the resource in the stack.
   * @param args The cluster and the target version.
   * @param opts Standard resource options.
   */
  constructor(name: string, args: K8sClusterUpgradeArgs, opts?: pulumi.CustomResourceOptions) {
    const registration = registrationOf(
      "K8sClusterUpgrade",
      name,
      {
        projectId: args.projectId,
        regionId: args.regionId,
        clusterName: args.clusterName,
        version: args.version,
        allowMultiStep: args.allowMultiStep,
        timeoutMinutes: args.timeoutMinutes,
        soakSeconds: args.soakSeconds,
        clusterId: undefined,
        status: undefined,
        previousVersion: undefined,
        upgradePath: undefined,
        taskIds: undefined,
      },
      opts,
    );
    super(registration.type, name, registration.props, registration.opts);
  }
}
