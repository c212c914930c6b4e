/**
 * Brings one cluster to a target version: wait for an upgrade already running, then follow
 * `upgrade_versions` one permitted step at a time, awaiting each task and then the cluster's
 * health at the new version (`Provisioned`, every pool ready with its nodes: `health.ts`); with
 * `soakSeconds`, it then watches the cluster stay healthy that long before it reports success.
 *
 * Why its own module: this is the only code that writes for K8sClusterUpgrade, and it carries
 * the rules that keep a write from happening twice: a lock (`taskId`) found on the cluster is
 * awaited instead of starting another upgrade, and an upgrade POST whose answer was lost is
 * reconciled by reading the cluster ({@link reconcileWrite}), and sent again only when that
 * read proves it took no effect. A cluster read with no usable version is never acted on
 * (`clusterRead.ts`). Once an upgrade POST was accepted (or may have been), a later failure
 * other than the task's own (a task or cluster read that fails, a timeout, a cluster that does
 * not become or stay healthy) is reported as partial state (`partial.ts`): the stack records the
 * cluster as last seen (the version it reached) and the tasks started, the resources that depend
 * on this one are not run, and the next `up` follows the running task instead of starting another.
 */
import { CloudPlatformError, ConflictError, type CloudPlatformClient } from "../../api";
import { formatDuration } from "../../api/duration";
import { sleep } from "../../api/sleep";
import { messageOf, reworded } from "../../caughtErrors";
import { resolvePollSchedule, TaskFailedError, TaskTimeoutError, waitForTask, type PollSchedule, type TaskProgress, type WaiterClock } from "../../tasks";
import type { LifecycleContext } from "../lifecycle";
import { PartialResourceError } from "../partial";
import { withRefusalCode } from "../refusals";
import { reconcileWrite, WriteOutcomeUnknownError, type ProbeResult } from "../writeAttempts";
import { requireUsableCluster } from "./clusterRead";
import { awaitHealthy, poolSizesOf, soak, type HealthWatch, type PoolSizes } from "./health";
import { lockOf } from "./lock";
import { planNextStep } from "./plan";
import { PROVISIONED_STATUS, resourceIdOf, soakSecondsOf, UPGRADE_TASK_TYPE, type K8sClusterUpgradeInputs, type K8sClusterUpgradeOutputs, type UsableCluster } from "./types";

/** The real time source, unless a test injects one. */
const REAL_CLOCK: WaiterClock = { now: () => Date.now(), sleep };

/**
 * Upper bound of tasks awaited in one create/update. A cluster has a handful of minor versions
 * to climb; the bound only stops a loop if the API kept reporting a lock that never clears.
 */
const MAX_TASKS_PER_RUN = 20;

/** Tunables of the runner (tests make polling faster; production uses the defaults). */
export interface UpgradeRunnerOptions {
  /** Overrides of the task polling schedule. */
  readonly pollSchedule?: Partial<PollSchedule> | undefined;
  /** The time source of the task waits, the health wait and the soak (tests run an hour's wait in moments). */
  readonly clock?: WaiterClock | undefined;
}

/** The target could not be reached; the message names the current and permitted versions. */
export class UpgradeRejectedError extends CloudPlatformError {}

/**
 * The cluster does not report its lock and the running tasks cannot tell whether an upgrade of
 * it is under way: nothing is sent, since a second upgrade must never start beside a first.
 */
export class UpgradeLockUnclearError extends CloudPlatformError {}

/** After its task FINISHED the cluster did not report the expected version and status. */
export class UpgradeVerificationError extends CloudPlatformError {}

/** How a step began. */
type StepStart =
  | { readonly kind: "task"; readonly taskId: string }
  /** The cluster already reports the new version (the task finished before we could see it). */
  | { readonly kind: "done"; readonly cluster: UsableCluster };

/** Runs the upgrade of one cluster for one create/update. */
class UpgradeRun {
  private readonly client: CloudPlatformClient;
  private readonly upgradePath: string[] = [];
  private readonly taskIds: string[] = [];
  /** Set once an upgrade POST was accepted or may have been: from then on the platform acted. */
  private acted = false;
  /** The last well-formed read of the cluster, and its version when the run began. */
  private lastSeen: UsableCluster | undefined;
  private previousVersion: string | undefined;
  /** The pools' node counts when the run began: what each must have again to be healthy. */
  private sizesBefore: PoolSizes = new Map();
  /** The version a step of this run last awaited healthy. */
  private healthyAt: string | undefined;
  private readonly clock: WaiterClock;

  constructor(
    private readonly ctx: LifecycleContext,
    private readonly inputs: K8sClusterUpgradeInputs,
    private readonly options: UpgradeRunnerOptions,
  ) {
    this.client = ctx.client();
    this.clock = options.clock ?? REAL_CLOCK;
  }

  /** What the health wait and the soak use of this run. */
  private get watch(): HealthWatch {
    return {
      name: this.name,
      readCluster: () => this.readCluster(),
      log: (message, options) => this.ctx.log(message, options),
      clock: this.clock,
      schedule: resolvePollSchedule(this.options.pollSchedule),
      signal: this.ctx.signal,
    };
  }

  private get name(): string {
    return this.inputs.clusterName;
  }

  /** Reads the cluster; one without a usable version or status is an error, never acted on. */
  private async readCluster(): Promise<UsableCluster> {
    const { projectId, regionId, clusterName } = this.inputs;
    const read = await this.client.cloud.k8s.getCluster(projectId, regionId, clusterName);
    const cluster = requireUsableCluster(read, projectId, regionId, clusterName, "the upgrade stopped before its next write");
    this.lastSeen = cluster;
    return cluster;
  }

  async run(): Promise<K8sClusterUpgradeOutputs> {
    try {
      return await this.converge();
    } catch (err) {
      // A failed task leaves the cluster as it was, unless earlier steps of this run landed.
      const progressed = this.upgradePath.length > 0;
      throw this.acted && (progressed || !(err instanceof TaskFailedError)) ? this.partial(err) : err;
    }
  }

  /** The outputs as far as they are known: the cluster as last seen and the tasks started. */
  private outputs(cluster: UsableCluster): K8sClusterUpgradeOutputs {
    return {
      ...this.inputs,
      version: cluster.version,
      clusterId: cluster.id,
      status: cluster.status,
      previousVersion: this.previousVersion ?? cluster.version,
      upgradePath: [...this.upgradePath],
      taskIds: [...this.taskIds],
    };
  }

  /** The failure after an upgrade was started, as partial state the stack records. */
  private partial(err: unknown): PartialResourceError | unknown {
    if (!this.lastSeen) return err;
    const message = messageOf(err);
    const last = this.lastSeen;
    const named = message.startsWith(`${this.name}: `) ? message : `${this.name}: ${message}`;
    const path = this.upgradePath.length > 0 ? ` It reached ${last.version} by the path ${[this.previousVersion, ...this.upgradePath].join(" -> ")}.` : "";
    return new PartialResourceError(
      `${named} An upgrade of the cluster was started (tasks ${this.taskIds.join(", ") || "not known"}), so the stack records the cluster as last read ` +
        `(${last.version}, ${last.status}).${path} The next \`pulumi up\` reads it again and follows a running upgrade instead of starting another.`,
      resourceIdOf(this.inputs),
      // No watch was passed: recorded as none, so the next `up`, with or without a refresh
      // first, plans an update and watches again before the resources that depend on this one.
      { ...this.outputs(last), soakSeconds: 0 },
      [message],
      err,
    );
  }

  private async converge(): Promise<K8sClusterUpgradeOutputs> {
    const { projectId, regionId, clusterName, version: target, allowMultiStep } = this.inputs;
    const handedOver = this.ctx.run.clusterReads.take(projectId, regionId, clusterName);
    let cluster = handedOver?.cluster ?? (await this.readCluster());
    this.lastSeen = cluster;
    let checkedPermitted = handedOver?.permitted;
    this.previousVersion = cluster.version;
    this.sizesBefore = poolSizesOf(cluster);
    let rechecked = false;

    for (;;) {
      if (this.taskIds.length >= MAX_TASKS_PER_RUN) {
        throw new UpgradeVerificationError(
          `${this.name}: gave up after ${MAX_TASKS_PER_RUN} tasks; the cluster runs ${cluster.version}, wanted ${target}`,
        );
      }
      if (cluster.version === target) break;
      const lock = await lockOf(this.client, this.inputs, cluster);
      if (lock.kind === "unclear") {
        const why = `${this.name}: cannot tell whether an upgrade is already running: ${lock.reason}; nothing was sent. Run again once it has finished.`;
        throw new UpgradeLockUnclearError(withRefusalCode("CLOUDPLATFORM_UPGRADE_LOCK_UNCLEAR", why));
      }
      if (lock.kind === "locked") {
        // An upgrade (or other operation) is already running, e.g. from an interrupted
        // `pulumi up`: wait for it rather than starting a second one (it would be refused).
        this.ctx.log(`${this.name}: an operation is already running on the cluster (task ${lock.taskId}); waiting for it instead of starting another upgrade`);
        cluster = await this.awaitTask(lock.taskId, undefined, cluster.version);
        continue;
      }

      const permitted =
        checkedPermitted ?? (await this.client.cloud.k8s.upgradeVersions(projectId, regionId, clusterName)).results.map((v) => v.version);
      checkedPermitted = undefined;
      const decision = planNextStep({ clusterName, current: cluster.version, target, permitted, allowMultiStep });
      if (decision.kind === "at-target") break;
      if (decision.kind === "rejected") {
        const moved = decision.why === "unreachable" && !rechecked ? await this.movedSince(cluster) : undefined;
        rechecked = true;
        if (!moved) throw new UpgradeRejectedError(decision.reason);
        cluster = moved;
        continue;
      }
      rechecked = false;

      this.ctx.log(`${this.name}: upgrading ${cluster.version} -> ${decision.version}${decision.final ? "" : ` (on the way to ${target})`}`);
      const start = await this.startStep(cluster, decision.version);
      cluster = start.kind === "task" ? await this.awaitTask(start.taskId, decision.version, cluster.version) : this.recordDone(start.cluster, cluster.version);
    }

    return this.outputs(await this.finish(cluster));
  }

  /**
   * The cluster read again when a step looked unreachable, if it moved since `seen` (another
   * version, or a lock): the permitted versions were read after the cluster, and an upgrade that
   * finished in between makes them belong to a newer version than the one planned from.
   */
  private async movedSince(seen: UsableCluster): Promise<UsableCluster | undefined> {
    const fresh = await this.readCluster();
    return fresh.version !== seen.version || (fresh.taskId ?? null) !== (seen.taskId ?? null) ? fresh : undefined;
  }

  /**
   * The cluster at its target: awaited healthy when this run moved it and no step did so yet
   * (a version found changed without a task), or when `soakSeconds` asks for a watch (also the
   * run after a failed one, which finds the cluster at its target); then watched that long.
   */
  private async finish(cluster: UsableCluster): Promise<UsableCluster> {
    const { timeoutMinutes } = this.inputs;
    const soakSeconds = soakSecondsOf(this.inputs);
    const moved = this.upgradePath.length > 0;
    let healthy = cluster;
    if ((moved || soakSeconds > 0) && this.healthyAt !== cluster.version) {
      healthy = await awaitHealthy(this.watch, cluster, cluster.version, this.sizesBefore, this.clock.now() + timeoutMinutes * 60_000, `timeoutMinutes (${timeoutMinutes})`);
    }
    return soakSeconds > 0 ? soak(this.watch, healthy, this.sizesBefore, soakSeconds) : healthy;
  }

  /**
   * POST the upgrade through {@link reconcileWrite}: after an ambiguous failure the cluster is
   * read back; a lock means the upgrade runs (follow its task), a new version means it already
   * happened, the same version with no lock means it took no effect (send again). A 409 (the
   * cluster is locked, e.g. by a late arrival of our own earlier attempt) is followed the same
   * way: the running task is awaited, never a second upgrade started.
   */
  private async startStep(before: UsableCluster, version: string): Promise<StepStart> {
    const { projectId, regionId, clusterName } = this.inputs;
    try {
      return await reconcileWrite<StepStart>(
        {
          what: `the upgrade of ${this.name} to ${version}`,
          send: async (_attempt, options) => {
            const { tasks } = await this.client.cloud.k8s.upgrade(projectId, regionId, clusterName, version, options);
            this.acted = true;
            const taskId = tasks[0];
            if (!taskId) throw new UpgradeVerificationError(`${this.name}: the upgrade to ${version} was accepted but returned no task id`);
            return { kind: "task", taskId };
          },
          probe: async () => this.probeStep(before, await this.readCluster()),
          log: (line) => this.ctx.log(`${this.name}: ${line}`),
          signal: this.ctx.signal,
        },
        this.ctx.run.writeTiming,
      ).then((start) => {
        this.acted = true;
        return start;
      });
    } catch (err) {
      if (err instanceof WriteOutcomeUnknownError) this.acted = true;
      if (!(err instanceof ConflictError)) throw err;
      const after = await this.readCluster();
      const lock = await lockOf(this.client, this.inputs, after);
      if (lock.kind === "locked") {
        this.ctx.log(`${this.name}: the cluster is locked by task ${lock.taskId}; following it instead of sending the request again`);
        return { kind: "task", taskId: lock.taskId };
      }
      if (after.version !== before.version) return { kind: "done", cluster: after };
      const seen = lock.kind === "free" ? "with no task running" : `and ${lock.reason}`;
      throw reworded(err, `${err.message} (read back: cluster ${this.name} still runs ${after.version} ${seen}; nothing was resent)`);
    }
  }

  /**
   * What a read of the cluster says about an upgrade POST whose answer was lost: a lock or a new
   * version means it took effect; an unclear lock is unclear (never "took no effect", which
   * would send it again).
   */
  private async probeStep(before: UsableCluster, after: UsableCluster): Promise<ProbeResult<StepStart>> {
    const lock = await lockOf(this.client, this.inputs, after);
    if (lock.kind === "locked") return { outcome: "applied", value: { kind: "task", taskId: lock.taskId } };
    if (after.version !== before.version) return { outcome: "applied", value: { kind: "done", cluster: after } };
    if (lock.kind === "unclear") return { outcome: "unclear", reason: lock.reason };
    if (after.status !== before.status) {
      return { outcome: "unclear", reason: `the cluster shows no task but its status changed from ${before.status} to ${after.status}` };
    }
    return { outcome: "absent" };
  }

  /** Notes a version change seen without a task id to wait for. */
  private recordDone(cluster: UsableCluster, from: string): UsableCluster {
    if (cluster.version !== from) this.upgradePath.push(cluster.version);
    return cluster;
  }

  /**
   * Wait for a task, then read the cluster back. With `expected` (a step we started) the
   * cluster must report that version; for a task found running, the version it reached is
   * recorded in the path if it changed. A new version is then awaited healthy, within what is
   * left of `timeoutMinutes` for this step.
   */
  private async awaitTask(taskId: string, expected: string | undefined, from: string): Promise<UsableCluster> {
    this.taskIds.push(taskId);
    const what = expected ? `upgrade to ${expected}` : "running operation";
    const deadline = this.clock.now() + this.inputs.timeoutMinutes * 60_000;
    try {
      await waitForTask(this.client, taskId, {
        timeoutMs: this.inputs.timeoutMinutes * 60_000,
        signal: this.ctx.signal,
        taskType: UPGRADE_TASK_TYPE,
        schedule: this.options.pollSchedule,
        clock: this.clock,
        onProgress: (p: TaskProgress) =>
          this.ctx.log(`${this.name}: ${what} ${p.state ?? "PENDING"}, ${formatDuration(p.elapsedMs, "seconds")} elapsed (task ${taskId})`, { status: true }),
      });
    } catch (err) {
      // Name the limit that ran out: a user may also have set customTimeouts (plugin path).
      if (err instanceof TaskTimeoutError) throw reworded(err, `${this.name}: timeoutMinutes (${this.inputs.timeoutMinutes}, per task) ran out: ${err.message}`);
      throw err;
    }
    const cluster = await this.readCluster();
    if (expected !== undefined && cluster.version !== expected) {
      throw new UpgradeVerificationError(
        `${this.name}: task ${taskId} finished but the cluster reports version ${cluster.version}, expected ${expected}`,
      );
    }
    if (cluster.version === from && expected === undefined) return cluster;
    // The version is reached (recorded even if the cluster then does not become healthy).
    this.upgradePath.push(cluster.version);
    const limit = `timeoutMinutes (${this.inputs.timeoutMinutes}, per upgrade step)`;
    const healthy = await awaitHealthy(this.watch, cluster, cluster.version, this.sizesBefore, deadline, limit);
    this.healthyAt = healthy.version;
    this.ctx.log(`${this.name}: ${PROVISIONED_STATUS} at ${healthy.version} with every pool ready (task ${taskId})`);
    return healthy;
  }
}

/**
 * Bring the cluster named by `inputs` to `inputs.version` and return the outputs to record.
 * No write when it is already there. Throws TaskFailedError (the task's own error text) when a
 * task fails, UpgradeRejectedError when the target is a downgrade or not reachable, and
 * TaskTimeoutError when one task is not done within `timeoutMinutes`.
 */
export function upgradeCluster(
  ctx: LifecycleContext,
  inputs: K8sClusterUpgradeInputs,
  options: UpgradeRunnerOptions = {},
): Promise<K8sClusterUpgradeOutputs> {
  return new UpgradeRun(ctx, inputs, options).run();
}
