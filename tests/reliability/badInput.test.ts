/**
 * Bad input: a table of invalid inputs of both resources and of the lookups. Each case is one
 * `pulumi preview` of an inline program declaring just that input; it must fail with a message
 * naming the field and what is allowed, and the simulator must log no write (POST, PUT, DELETE
 * or PATCH; the admin API is never logged). Reads are allowed: the K8sClusterUpgrade check reads
 * the cluster to judge a downgrade or an unreachable version.
 */
import * as cloud from "../../sdk/nodejs";
import { startSimulator } from "../../simulator";
import { admin, newKey } from "../unit/api/helpers";
import { createTestStack, type TestStack } from "../integration/harness";
import {
  count,
  createProgramDirStack,
  LOOKUP_PROGRAM,
  printSummary,
  rejectionMessage,
  requestLog,
  simConfig,
  writesIn,
  writeLookupCase,
  type Sim,
} from "./support";

jest.setTimeout(600_000);

/**
 * What one case's program does: declare a resource (inline program), or call a lookup (a
 * program directory: a failing lookup must fail the run through Pulumi's own error handling in
 * the language host's process, as it does for users; in an inline program it would be an
 * unhandled rejection of the test runner's process).
 */
type Declare = { inline: () => unknown } | { lookup: string; args: unknown };
/** One invalid input: what the program does, and the texts its error must contain. */
type Case = [label: string, declare: Declare, expected: string[]];

const ev = (args: Record<string, unknown>): Declare => ({ inline: () => new cloud.StorageEvent("bad-event", args as never) });
const k8s = (args: Record<string, unknown>): Declare => ({
  inline: () => new cloud.K8sClusterUpgrade("bad-upgrade", { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2", ...args } as never),
});
/** A lookup the program calls (and awaits) with these arguments. */
const lookup = (fn: { name: string }, args: unknown): Declare => ({ lookup: fn.name, args });
const EVENT_NAMES = ["reaching_used_space", "reaching_files_quantity", "reaching_used_traffic", "reaching_used_requests"];
const totals = { metric: "volume", from: "2026-10-01", to: "2026-11-01" };

const CASES: Case[] = [
  // StorageEvent: checked offline at preview.
  ["StorageEvent: unknown name", ev({ name: "reaching_the_moon", storageName: "s", bytes: 1 }), ["name must be one of", ...EVENT_NAMES]],
  ["StorageEvent: missing name", ev({ storageName: "s", bytes: 1 }), ["name is required", ...EVENT_NAMES]],
  ["StorageEvent: bytes with a count-kind name", ev({ name: "reaching_files_quantity", storageName: "s", bytes: 5 }), ["bytes goes with reaching_used_space and reaching_used_traffic only", "set count"]],
  ["StorageEvent: count with a bytes-kind name", ev({ name: "reaching_used_traffic", storageName: "s", count: 5 }), ["count goes with reaching_files_quantity and reaching_used_requests only", "set bytes"]],
  ["StorageEvent: no limit", ev({ name: "reaching_used_requests", storageName: "s" }), ["reaching_used_requests needs a limit: set count", "non-negative integer"]],
  ["StorageEvent: negative bytes", ev({ name: "reaching_used_space", storageName: "s", bytes: -1 }), ["bytes must be a non-negative integer", "got -1"]],
  ["StorageEvent: fractional count", ev({ name: "reaching_files_quantity", storageName: "s", count: 2.5 }), ["count must be a non-negative integer", "got 2.5"]],
  ["StorageEvent: neither storage nor bucket", ev({ name: "reaching_used_space", bytes: 1 }), ["set storageName, bucketName or both"]],
  ["StorageEvent: empty storageName", ev({ name: "reaching_used_space", storageName: " ", bytes: 1 }), ["storageName must be a non-empty string"]],
  ["StorageEvent: clientId 0", ev({ name: "reaching_used_space", storageName: "s", bytes: 1, clientId: 0 }), ["clientId must be a positive integer", "got 0"]],
  // K8sClusterUpgrade: shape offline, reachability against the live cluster (reads only).
  ["K8sClusterUpgrade: malformed version", k8s({ version: "1.31" }), ["version must have the shape v<major>.<minor>.<patch>", "e.g. v1.31.2", '"1.31"']],
  ["K8sClusterUpgrade: downgrade", k8s({ version: "v1.29.8" }), ["version v1.29.8 is a downgrade: cluster prod-cluster runs v1.30.4", "Permitted next versions: v1.31.2"]],
  ["K8sClusterUpgrade: unreachable in one step", k8s({ version: "v1.32.1" }), ["version v1.32.1 cannot be reached in one step from v1.30.4", "only to v1.31.2", "allowMultiStep: true"]],
  ["K8sClusterUpgrade: projectId 0", k8s({ projectId: 0 }), ["projectId must be a positive integer", "got 0"]],
  ["K8sClusterUpgrade: regionId as text", k8s({ regionId: "76" }), ["regionId must be a positive integer", '"76"']],
  ["K8sClusterUpgrade: empty clusterName", k8s({ clusterName: "" }), ["clusterName must be the cluster's name (a non-empty string)"]],
  ["K8sClusterUpgrade: unknown cluster", k8s({ clusterName: "no-such-cluster" }), ["clusterName", "cluster no-such-cluster was not found in project 1, region 76"]],
  ["K8sClusterUpgrade: allowMultiStep as text", k8s({ allowMultiStep: "yes" }), ["allowMultiStep must be true or false", '"yes"']],
  ["K8sClusterUpgrade: timeoutMinutes 0", k8s({ timeoutMinutes: 0 }), ["timeoutMinutes must be a positive number of minutes", "got 0"]],
  ["K8sClusterUpgrade: soakSeconds -1", k8s({ soakSeconds: -1 }), ["soakSeconds must be a whole number of seconds from 0 to 86400 (a day)", "got -1"]],
  // Lookups: validated in the program before any request; one of each kind of check (required,
  // enum, type, date, across fields, an argument the lookup does not take). Every lookup's
  // invalid inputs are in tests/unit/lookups/validation.test.ts, through runLookup, the one
  // function every SDK lookup calls.
  ["getInstances: missing regionId", lookup(cloud.getInstances, { projectId: 1 }), ["getInstances: regionId is required (an integer >= 1)"]],
  ["getInstances: unknown status", lookup(cloud.getInstances, { projectId: 1, regionId: 76, status: "RUNNING" }), ["getInstances: status must be one of ACTIVE, BUILD", "SHUTOFF", '"RUNNING"']],
  ["getResellerTotals: to before from", lookup(cloud.getResellerTotals, { ...totals, to: "2026-09-01" }), ["getResellerTotals: to must be after from", '"2026-10-01"', '"2026-09-01"']],
  ["getResellerPing: an argument it does not take", lookup(cloud.getResellerPing, { clientId: 1 }), ["getResellerPing: clientId is not an argument of getResellerPing, which takes none"]],
  ["getK8sUpgradeVersions: projectId as text", lookup(cloud.getK8sUpgradeVersions, { projectId: "1", regionId: 76, clusterName: "prod-cluster" }), ["getK8sUpgradeVersions: projectId must be an integer >= 1", '"1"']],
  ["getStreamingAiTasks: bad dateCreated", lookup(cloud.getStreamingAiTasks, { dateCreated: "yesterday" }), ["getStreamingAiTasks: dateCreated must be an ISO 8601 date (YYYY-MM-DD)", '"yesterday"']],
];

let sim: Sim;
let t: TestStack | undefined;
/** The stack of the lookup program directory. */
let lookups: Awaited<ReturnType<typeof createProgramDirStack>> | undefined;
/** What the inline program declares in the current preview. */
let current: (() => unknown) | undefined;
let rejected = 0;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey() });
  t = await createTestStack({
    projectName: "reliability-bad-input",
    program: async () => {
      await current?.();
      return {};
    },
    config: simConfig(sim),
  });
  lookups = await createProgramDirStack("reliability-bad-lookup", LOOKUP_PROGRAM, simConfig(sim));
});

afterAll(async () => {
  try {
    await t?.cleanup();
    await lookups?.cleanup();
  } finally {
    await sim?.close();
    count((c) => {
      c.badInputsTried += CASES.length;
      c.badInputsRejected += rejected;
    });
    printSummary("badInput", `${rejected}/${CASES.length} invalid inputs rejected at preview with no write`);
  }
});

test.each(CASES)("%s", async (_label, declare, expected) => {
  await admin(sim, "DELETE", "/requests");
  let message: string;
  if ("inline" in declare) {
    current = declare.inline;
    try {
      message = await rejectionMessage(t!.stack.preview({ color: "never" }));
    } finally {
      current = undefined;
    }
  } else {
    writeLookupCase(lookups!, declare.lookup, declare.args);
    message = await rejectionMessage(lookups!.stack.preview({ color: "never" }));
  }
  for (const text of expected) expect(message).toContain(text);
  expect(message).not.toContain(sim.apiKey);
  expect(writesIn(await requestLog(sim))).toEqual([]);
  rejected++;
});
