/**
 * Shared pieces of the reliability suite: the quickstart stack (inline and as a program
 * directory), request-log queries, secret scans and the suite's summary counts.
 *
 * Needs `npx tsc -p tsconfig.json` first: the dynamic provider (and the program directories)
 * load `dist/`.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import * as cloud from "../../sdk/nodejs";
import type { RequestLogEntry, RunningSimulator } from "../../simulator";
import { createTestStack, SDK_PATH, writeProgramDir, type TestStack } from "../integration/harness";
import { admin } from "../unit/api/helpers";

export type Sim = RunningSimulator;

/** The cluster the quickstart upgrades, and where. */
export const CLUSTER = "demo-cluster";
export const TARGET_VERSION = "v1.31.2";
export const SEED_VERSION = "v1.30.4";
export const UPGRADE_PATH = `/cloud/v2/k8s/clusters/1/76/${CLUSTER}/upgrade`;
export const EVENT_PATH = "/storage/notifications/v1/event";

/** The two StorageEvents of the quickstart, as the simulator stores them. */
export const QUICKSTART_EVENTS = [
  { name: "reaching_used_space", storage_name: "demo-storage", bytes: 500 * 1024 ** 3 },
  { name: "reaching_used_requests", storage_name: "demo-storage", bucket_name: "demo-bucket", count: 1_000_000 },
] as const;

/**
 * The quickstart (examples/quickstart/index.ts) as an inline program: the project and region
 * lookups, the upgrade of demo-cluster to v1.31.2, two storage thresholds.
 */
export async function quickstartProgram(): Promise<Record<string, unknown>> {
  const project = cloud.getProjectOutput({});
  const region = cloud.getRegionOutput({ name: "Luxembourg-2", hasK8s: true });
  const clusterVersion = new cloud.K8sClusterUpgrade("cluster-version", {
    projectId: project.id,
    regionId: region.id,
    clusterName: CLUSTER,
    version: TARGET_VERSION,
  });
  const storageSpace = new cloud.StorageEvent("storage-space", {
    name: "reaching_used_space",
    storageName: "demo-storage",
    bytes: 500 * 1024 ** 3,
  });
  const bucketRequests = new cloud.StorageEvent("bucket-requests", {
    name: "reaching_used_requests",
    storageName: "demo-storage",
    bucketName: "demo-bucket",
    count: 1_000_000,
  });
  return {
    projectName: project.name,
    regionDisplayName: region.displayName,
    clusterRunning: clusterVersion.version,
    clusterPreviousVersion: clusterVersion.previousVersion,
    storageSpaceEvent: storageSpace.uuid,
    bucketRequestsEvent: bucketRequests.uuid,
  };
}

/** Stack config pointing at the simulator, the key as a secret. */
export function simConfig(sim: Sim, apiKey: string = sim.apiKey): ConfigMap {
  return {
    "cloudplatform:baseUrl": { value: sim.url },
    "cloudplatform:apiKey": { value: apiKey, secret: true },
  };
}

/** The request log through the admin API (what a test outside this process would see). */
export async function requestLog(sim: Sim): Promise<RequestLogEntry[]> {
  return ((await admin(sim, "GET", "/requests")) as { requests: RequestLogEntry[] }).requests;
}

/** Writes (anything but GET) in the log; the admin API is never logged. */
export function writesIn(log: readonly RequestLogEntry[]): RequestLogEntry[] {
  return log.filter((r) => r.method !== "GET" && r.method !== "HEAD");
}

/**
 * Requests the server handled (it acted on them): a 2xx status, also when the connection was
 * reset after handling. 503 from the fault injector and resets before handling (status 0) were
 * provably not acted on.
 */
export function handled(log: readonly RequestLogEntry[], method: string, p: string): RequestLogEntry[] {
  return log.filter((r) => r.method === method && r.path === p && r.status >= 200 && r.status < 300);
}

/**
 * No duplicate write: exactly one upgrade POST the server acted on, and one event POST acted on
 * per event identity. The log has no bodies, but the server allows one event per identity (a
 * second POST of an identity is a 409), so "handled event POSTs == distinct identities live,
 * and no 409 on the event endpoint" is exactly "one POST per identity".
 */
export function expectNoDuplicateWrites(sim: Sim, log: readonly RequestLogEntry[]): void {
  expect(handled(log, "POST", UPGRADE_PATH)).toHaveLength(1);
  expect(log.filter((r) => r.path === UPGRADE_PATH && r.status === 409)).toEqual([]);
  const identities = new Set(sim.state().storageEvents.map((e) => JSON.stringify([e.name, e.storage_name ?? "", e.bucket_name ?? "", e.client_id ?? null])));
  expect(identities.size).toBe(sim.state().storageEvents.length);
  expect(handled(log, "POST", EVENT_PATH)).toHaveLength(identities.size);
  expect(log.filter((r) => r.path === EVENT_PATH && r.status === 409)).toEqual([]);
}

/** The simulator holds exactly the quickstart's result: two events and the upgraded cluster. */
export function expectQuickstartApplied(sim: Sim): void {
  const events = sim.state().storageEvents.map((e) => {
    const { uuid: _uuid, ...rest } = e as unknown as Record<string, unknown>;
    return rest;
  });
  expect(events).toHaveLength(2);
  expect(events).toEqual(expect.arrayContaining(QUICKSTART_EVENTS.map((e) => expect.objectContaining(e))));
  const cluster = sim.state().clusters.find((c) => c.name === CLUSTER);
  expect(cluster?.version).toBe(TARGET_VERSION);
  expect(cluster?.task_id ?? null).toBeNull();
}

/** Change summary without the zero and `same` entries: `{}` means no changes. */
export function changesOf(summary: Record<string, number | undefined> | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(summary ?? {}).filter(([k, v]) => k !== "same" && (v ?? 0) > 0)) as Record<string, number>;
}

/** A preview of the stack must plan nothing. */
export async function expectNoChanges(stack: Stack): Promise<void> {
  const preview = await stack.preview({ color: "never", diff: true });
  expect(changesOf(preview.changeSummary)).toEqual({});
}

/** The message of a rejected promise; throws when it resolved. */
export async function rejectionMessage(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return String((err as Error)?.message ?? err);
  }
  throw new Error("expected the operation to fail, but it succeeded");
}

export { SECRET_SIG_KEY, SECRET_SIG_VALUE } from "../integration/stateSecrets";

/**
 * Writes a program directory holding a JavaScript program equivalent to examples/quickstart,
 * for runs of the CLI as a child process. It needs no compiler: it requires the built SDK.
 */
export function writeQuickstartProgramDir(dir: string, projectName: string): void {
  const sdk = JSON.stringify(SDK_PATH);
  writeProgramDir(
    dir,
    projectName,
    [
      `// examples/quickstart/index.ts with its defaults, as plain JavaScript (events after the upgrade).`,
      `const cloud = require(${sdk});`,
      `const project = cloud.getProjectOutput({});`,
      `const region = cloud.getRegionOutput({ name: "Luxembourg-2", hasK8s: true });`,
      `const clusterVersion = new cloud.K8sClusterUpgrade("cluster-version", { projectId: project.id, regionId: region.id, clusterName: ${JSON.stringify(CLUSTER)}, version: ${JSON.stringify(TARGET_VERSION)} });`,
      `// The events wait for the upgrade, so a kill aimed at the upgrade never lands inside an event`,
      `// create (that case needs the user's explicit adoption: killedRuns.test.ts).`,
      `const after = { dependsOn: [clusterVersion] };`,
      `const storageSpace = new cloud.StorageEvent("storage-space", { name: "reaching_used_space", storageName: "demo-storage", bytes: 500 * 1024 ** 3 }, after);`,
      `const bucketRequests = new cloud.StorageEvent("bucket-requests", { name: "reaching_used_requests", storageName: "demo-storage", bucketName: "demo-bucket", count: 1000000 }, after);`,
      `exports.clusterRunning = clusterVersion.version;`,
      `exports.storageSpaceEvent = storageSpace.uuid;`,
      `exports.bucketRequestsEvent = bucketRequests.uuid;`,
      "",
    ].join("\n"),
  );
}

/**
 * A stack whose program is a directory holding `index.js` = `source` (it can require
 * `@pulumi/pulumi` and, by the absolute path in SDK_PATH, the built SDK). Why not inline: a
 * lookup failing in an inline program is an unhandled rejection of the test runner's process;
 * in a program directory it fails the run through Pulumi's own error handling, as for users.
 */
export function createProgramDirStack(projectName: string, source: string, config: ConfigMap): Promise<TestStack> {
  return createTestStack({ projectName, config, writeProgram: (programDir) => writeProgramDir(programDir, projectName, source) });
}

/**
 * A program that calls the lookup named in `case.json` beside it (`{fn, args}`) and awaits it.
 * A file, not stack config: a test switches cases by writing it ({@link writeLookupCase}), with
 * no CLI run (a `config set` is a run of its own, secrets key derivation included).
 */
export const LOOKUP_PROGRAM = [
  `const fs = require("fs");`,
  `const path = require("path");`,
  `const cloud = require(${JSON.stringify(SDK_PATH)});`,
  `const { fn, args } = JSON.parse(fs.readFileSync(path.join(__dirname, "case.json"), "utf8"));`,
  `module.exports = (async () => { await cloud[fn](args); return {}; })();`,
  "",
].join("\n");

/** Sets which lookup the next run of a {@link LOOKUP_PROGRAM} stack calls, and with what. */
export function writeLookupCase(t: TestStack, fn: string, args: unknown): void {
  fs.writeFileSync(path.join(t.programDir, "case.json"), JSON.stringify({ fn, args }));
}

// ---------------------------------------------------------------------------------------------
// Summary counts, shared by every file of the suite that runs in one jest process (`make
// test-reliability` runs them all in band, so its last file prints the suite's total).

/** What the suite counts. */
export interface Counts {
  faultRuns: number;
  faultRunsSurvived: number;
  faultsInjected: number;
  faultsByKind: Record<string, number>;
  killPointsTried: number;
  killPointsConverged: number;
  badInputsTried: number;
  badInputsRejected: number;
  secretScans: number;
  secretScansClean: number;
  authCasesTried: number;
  authCasesFailedFast: number;
  /** Malformed answers the simulator sent (request-log entries whose fault is a malformed mode). */
  malformedTried: number;
  /** Of those, the ones inside an operation that still succeeded (a GET retried, a write read back). */
  malformedRecovered: number;
  /** Operations that failed under malformed answers with a message naming the call (no key). */
  malformedClearErrors: number;
  /** Values an operation returned that the platform does not hold (must be 0). */
  silentValues: number;
  /** Objects on the platform the state lost track of, or resources dropped while they exist (must be 0). */
  resourcesLost: number;
}

const EMPTY: Counts = {
  faultRuns: 0,
  faultRunsSurvived: 0,
  faultsInjected: 0,
  faultsByKind: {},
  killPointsTried: 0,
  killPointsConverged: 0,
  badInputsTried: 0,
  badInputsRejected: 0,
  secretScans: 0,
  secretScansClean: 0,
  authCasesTried: 0,
  authCasesFailedFast: 0,
  malformedTried: 0,
  malformedRecovered: 0,
  malformedClearErrors: 0,
  silentValues: 0,
  resourcesLost: 0,
};

/** One file per jest process (pid plus start time, so a reused pid starts afresh). */
function summaryFile(): string {
  const started = Math.round(Date.now() / 1000 - process.uptime());
  return process.env.CLOUDPLATFORM_RELIABILITY_SUMMARY ?? path.join(os.tmpdir(), `cloudplatform-reliability-${process.pid}-${started}.json`);
}

function readCounts(): Counts {
  try {
    return { ...EMPTY, ...(JSON.parse(fs.readFileSync(summaryFile(), "utf8")) as Partial<Counts>) };
  } catch {
    return { ...EMPTY, faultsByKind: {} };
  }
}

/** Adds to the run's counts (kept in a file so every test file of the run adds to one total). */
export function count(update: (c: Counts) => void): void {
  const c = readCounts();
  update(c);
  fs.writeFileSync(summaryFile(), JSON.stringify(c));
}

/** The one-line summary of everything counted so far in this run. */
export function summaryLine(): string {
  const c = readCounts();
  const kinds = Object.entries(c.faultsByKind)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
  return (
    `RELIABILITY SUMMARY: faults injected ${c.faultsInjected}${kinds ? ` (${kinds})` : ""}, survived in ${c.faultRunsSurvived}/${c.faultRuns} runs; ` +
    `kill points converged ${c.killPointsConverged}/${c.killPointsTried}; ` +
    `bad inputs rejected ${c.badInputsRejected}/${c.badInputsTried}; ` +
    `secret scans clean ${c.secretScansClean}/${c.secretScans}; ` +
    `auth failures fast ${c.authCasesFailedFast}/${c.authCasesTried}; ` +
    `malformed answers tried ${c.malformedTried} / recovered ${c.malformedRecovered} / clear errors ${c.malformedClearErrors} / ` +
    `silent values ${c.silentValues} / resources lost ${c.resourcesLost}`
  );
}

/** Prints this file's part and the run's running total (the last file prints the whole run). */
export function printSummary(file: string, own: string): void {
  // eslint-disable-next-line no-console
  console.log(`${file}: ${own}\n${summaryLine()}`);
}
