/**
 * Brings one cluster to a target version one permitted step at a time, awaiting each task and
 * the cluster's health (`health.ts`), then an optional soak. The only code that writes for
 * K8sClusterUpgrade: a lock found on the cluster is awaited, never upgraded beside; a lost POST
 * answer is reconciled by reading. A failure after the platform acted is partial state
 * (`partial.ts`), so the next `up` follows the running task instead of starting another.
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

const REAL_CLOCK: WaiterClock = { now: () => Date.now(), sleep };

/** Stops a loop if the API kept reporting a lock that never clears. */
const MAX_TASKS_PER_RUN = 20;

/** Tests make polling faster; production uses the defaults. */
export interface UpgradeRunnerOptions {
  readonly pollSchedule?: Partial<PollSchedule> | undefined;
  /** Of the task waits, the health wait and the soak. */
  readonly clock?: WaiterClock | undefined;
}

/** The target could not be reached; the message names the current and permitted versions. */
export class UpgradeRejectedError extends CloudPlatformError {}

/** Whether an upgrade is under way cannot be told; nothing is sent, a second must never start beside a first. */
export class UpgradeLockUnclearError extends CloudPlatformError {}

/** After its task FINISHED the cluster did not report the expected version and status. */
export class UpgradeVerificationError extends CloudPlatformError {}

type StepStart =
  | { readonly kind: "task"; readonly taskId: string }
  /** The task finished before we could see it. */
  | { readonly kind: "done"; readonly cluster: UsableCluster };

class UpgradeRun {
  private readonly client: CloudPlatformClient;
  private readonly upgradePath: string[] = [];
  private readonly taskIds: string[] = [];
  /** Once an upgrade POST was accepted or may have been. */
  private acted = false;
  private lastSeen: UsableCluster | undefined;
  private previousVersion: string | undefined;
  /** What each pool must have again to be healthy. */
  private sizesBefore: PoolSizes = new Map();
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

  /** One without a usable version or status is an error, never acted on. */
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
      // No watch passed: the next `up` plans an update and watches again.
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
        // E.g. from an interrupted `pulumi up`: a second would be refused.
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
   * The permitted versions were read after the cluster: an upgrade finishing in between makes
   * them belong to a newer version than the one planned from.
   */
  private async movedSince(seen: UsableCluster): Promise<UsableCluster | undefined> {
    const fresh = await this.readCluster();
    return fresh.version !== seen.version || (fresh.taskId ?? null) !== (seen.taskId ?? null) ? fresh : undefined;
  }

  /** The user's `timeoutMinutes`: each task wait and the health wait has this long. */
  private get timeoutMs(): number {
    return this.inputs.timeoutMinutes * 60_000;
  }

  /** Awaited healthy when this run moved it without a step doing so, or when a soak is asked for. */
  private async finish(cluster: UsableCluster): Promise<UsableCluster> {
    const { timeoutMinutes } = this.inputs;
    const soakSeconds = soakSecondsOf(this.inputs);
    const moved = this.upgradePath.length > 0;
    let healthy = cluster;
    if ((moved || soakSeconds > 0) && this.healthyAt !== cluster.version) {
      healthy = await awaitHealthy(this.watch, cluster, cluster.version, this.sizesBefore, this.clock.now() + this.timeoutMs, `timeoutMinutes (${timeoutMinutes})`);
    }
    return soakSeconds > 0 ? soak(this.watch, healthy, this.sizesBefore, soakSeconds) : healthy;
  }

  /** A 409 (locked, perhaps by our own earlier attempt arriving late) awaits the running task too. */
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

  /** An unclear lock is unclear, never "took no effect", which would send the upgrade again. */
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

  private recordDone(cluster: UsableCluster, from: string): UsableCluster {
    if (cluster.version !== from) this.upgradePath.push(cluster.version);
    return cluster;
  }

  /** With `expected` (a step we started) the cluster must then report that version. */
  private async awaitTask(taskId: string, expected: string | undefined, from: string): Promise<UsableCluster> {
    this.taskIds.push(taskId);
    const what = expected ? `upgrade to ${expected}` : "running operation";
    const deadline = this.clock.now() + this.timeoutMs;
    try {
      await waitForTask(this.client, taskId, {
        timeoutMs: this.timeoutMs,
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

/** The outputs to record; no write when the cluster is already at `inputs.version`. */
export function upgradeCluster(
  ctx: LifecycleContext,
  inputs: K8sClusterUpgradeInputs,
  options: UpgradeRunnerOptions = {},
): Promise<K8sClusterUpgradeOutputs> {
  return new UpgradeRun(ctx, inputs, options).run();
}
