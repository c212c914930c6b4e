/**
 * Argument validation of every lookup: each bad argument is rejected with the lookup, the
 * argument and the allowed values named, before any request reaches the simulator.
 */
import type { RunningSimulator } from "../../../simulator";
import { LookupArgumentError } from "../../../provider/lookups/errors";
import { runLookup, type LookupDefinition } from "../../../provider/lookups/runtime";
import {
  getCurrentClientLookup,
  getDelegationStatusLookup,
  getInstancesLookup,
  getK8sClusterLookup,
  getK8sClustersLookup,
  getK8sUpgradeVersionsLookup,
  getProjectLookup,
  getProjectsLookup,
  getRegionLookup,
  getRegionsLookup,
  getResellerPingLookup,
  getResellerTotalsLookup,
  getStreamingAiTasksLookup,
  getTaskLookup,
  getTasksLookup,
} from "../../../provider/lookups";
import { envFor, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => sim.reset());

const totals = { metric: "requests" as const, clientIds: [101, 102], from: "2026-09-01", to: "2026-09-08" };
const badInputTotals = { metric: "volume", from: "2026-10-01", to: "2026-11-01" };

type Case = [string, LookupDefinition<any, any, any>, unknown, string | RegExp, string];

// [title, lookup, args, expected message (exact string or pattern), argument named]
const cases: Case[] = [
  ["bad metric", getResellerTotalsLookup, { ...totals, metric: "bogus" },
    'getResellerTotals: metric must be one of domains, volume, requests, requests_clean; got "bogus"', "metric"],
  ["missing metric", getResellerTotalsLookup, { ...totals, metric: undefined }, /^getResellerTotals: metric is required \(one of domains, volume, requests, requests_clean\)/, "metric"],
  ["limit 101", getResellerTotalsLookup, { ...totals, limit: 101 }, "getResellerTotals: limit must be an integer from 0 to 100; got 101", "limit"],
  ["limit -1", getResellerTotalsLookup, { ...totals, limit: -1 }, "getResellerTotals: limit must be an integer from 0 to 100; got -1", "limit"],
  ["limit 2.5", getResellerTotalsLookup, { ...totals, limit: 2.5 }, "getResellerTotals: limit must be an integer from 0 to 100; got 2.5", "limit"],
  ["offset -1", getResellerTotalsLookup, { ...totals, offset: -1 }, "getResellerTotals: offset must be an integer from 0 to 100000; got -1", "offset"],
  ["offset 100001", getResellerTotalsLookup, { ...totals, offset: 100001 }, "getResellerTotals: offset must be an integer from 0 to 100000; got 100001", "offset"],
  ["from not ISO", getResellerTotalsLookup, { ...totals, from: "09/01/2026" },
    'getResellerTotals: from must be a date in the form YYYY-MM-DD (ISO 8601); got "09/01/2026"', "from"],
  ["to not a real date", getResellerTotalsLookup, { ...totals, to: "2026-02-30" },
    'getResellerTotals: to must be a date in the form YYYY-MM-DD (ISO 8601); got "2026-02-30"', "to"],
  ["to before from", getResellerTotalsLookup, { ...totals, from: "2026-09-08", to: "2026-09-01" },
    'getResellerTotals: to must be after from (to is exclusive); got from "2026-09-08", to "2026-09-01"', "to"],
  ["to equal to from", getResellerTotalsLookup, { ...totals, to: "2026-09-01" }, /to must be after from/, "to"],
  ["client id not an integer", getResellerTotalsLookup, { ...totals, clientIds: [101, "x"] }, /clientIds must be a list of integers >= 1; got "x"/, "clientIds"],
  ["unknown argument", getResellerTotalsLookup, { ...totals, clientId: 101 },
    "getResellerTotals: clientId is not an argument of getResellerTotals; allowed arguments: metric, clientIds, from, to, limit, offset, maxResults", "clientId"],
  ["empty domain", getDelegationStatusLookup, { domain: "" }, 'getDelegationStatus: domain must be a non-empty string; got ""', "domain"],
  ["blank domain", getDelegationStatusLookup, { domain: "   " }, 'getDelegationStatus: domain must be a non-empty string; got "   "', "domain"],
  ["missing domain", getDelegationStatusLookup, {}, "getDelegationStatus: domain is required (a non-empty string); got undefined", "domain"],
  ["domain with a slash", getDelegationStatusLookup, { domain: "a/b.com" }, /domain must be a zone name/, "domain"],
  ["negative budget", getDelegationStatusLookup, { domain: "example.com", rateLimitBudgetSeconds: -1 },
    "getDelegationStatus: rateLimitBudgetSeconds must be an integer from 0 to 3600; got -1", "rateLimitBudgetSeconds"],
  ["projectId missing", getInstancesLookup, { regionId: 76 }, "getInstances: projectId is required (an integer >= 1); got undefined", "projectId"],
  ["projectId as string", getInstancesLookup, { projectId: "1", regionId: 76 }, 'getInstances: projectId must be an integer >= 1; got "1"', "projectId"],
  ["pageSize 0", getInstancesLookup, { projectId: 1, regionId: 76, pageSize: 0 }, "getInstances: pageSize must be an integer from 1 to 1000; got 0", "pageSize"],
  ["bad instance status", getInstancesLookup, { projectId: 1, regionId: 76, status: "RUNNING" }, /status must be one of ACTIVE, BUILD, .*; got "RUNNING"/, "status"],
  ["maxResults 0", getInstancesLookup, { projectId: 1, regionId: 76, maxResults: 0 }, "getInstances: maxResults must be an integer >= 1; got 0", "maxResults"],
  ["includeDeleted not boolean", getProjectsLookup, { includeDeleted: "yes" }, 'getProjects: includeDeleted must be true or false; got "yes"', "includeDeleted"],
  ["empty project name", getProjectLookup, { name: "" }, 'getProject: name must be a non-empty string; got ""', "name"],
  ["bad accessLevel", getRegionLookup, { accessLevel: "premium" }, 'getRegion: accessLevel must be one of core, edge; got "premium"', "accessLevel"],
  ["hasK8s not boolean", getRegionsLookup, { hasK8s: 1 }, "getRegions: hasK8s must be true or false; got 1", "hasK8s"],
  ["empty task id", getTaskLookup, { taskId: "" }, 'getTask: taskId must be a non-empty string; got ""', "taskId"],
  ["bad task state", getTasksLookup, { state: ["RUNNING", "DONE"] }, 'getTasks: state must be one of NEW, RUNNING, FINISHED, ERROR (or a list of them); got "DONE"', "state"],
  ["clusters without regionId", getK8sClustersLookup, { projectId: 1 }, "getK8sClusters: regionId is required (an integer >= 1); got undefined", "regionId"],
  ["clusters pageSize 1001", getK8sClustersLookup, { projectId: 1, regionId: 76, pageSize: 1001 }, "getK8sClusters: pageSize must be an integer from 1 to 1000; got 1001", "pageSize"],
  ["clusters empty name", getK8sClustersLookup, { projectId: 1, regionId: 76, name: " " }, 'getK8sClusters: name must be a non-empty string; got " "', "name"],
  ["clusters clusterName (not an argument)", getK8sClustersLookup, { projectId: 1, regionId: 76, clusterName: "prod-cluster" },
    "getK8sClusters: clusterName is not an argument of getK8sClusters; allowed arguments: projectId, regionId, name, pageSize, maxResults", "clusterName"],
  ["clusterName missing", getK8sClusterLookup, { projectId: 1, regionId: 76 }, "getK8sCluster: clusterName is required (a non-empty string); got undefined", "clusterName"],
  ["regionId 0", getK8sUpgradeVersionsLookup, { projectId: 1, regionId: 0, clusterName: "prod-cluster" }, "getK8sUpgradeVersions: regionId must be an integer >= 1; got 0", "regionId"],
  ["bad AI status", getStreamingAiTasksLookup, { status: "DONE" }, 'getStreamingAiTasks: status must be one of FAILURE, PENDING, RECEIVED, RETRY, REVOKED, STARTED, SUCCESS; got "DONE"', "status"],
  ["bad AI ordering", getStreamingAiTasksLookup, { ordering: "created" }, /ordering must be one of task_id, status, task_name, started_at; got "created"/, "ordering"],
  ["bad AI date", getStreamingAiTasksLookup, { dateCreated: "yesterday" }, /dateCreated must be an ISO 8601 date/, "dateCreated"],
  ["argument to a no-argument lookup", getCurrentClientLookup, { id: 1 }, "getCurrentClient: id is not an argument of getCurrentClient, which takes none", "id"],
  ["args not an object", getResellerPingLookup, "now", 'getResellerPing: args must be an object; got "now"', "args"],
  // The cases tests/reliability/badInput.test.ts once ran each through a Pulumi preview (it keeps
  // one of each kind of check there): every SDK lookup calls runLookup.
  ["getProjects: includeDeleted as text", getProjectsLookup, { includeDeleted: "no" },
    'getProjects: includeDeleted must be true or false; got "no"', "includeDeleted"],
  ["getProject: id 0", getProjectLookup, { id: 0 },
    "getProject: id must be an integer >= 1; got 0", "id"],
  ["getRegions: unknown accessLevel", getRegionsLookup, { accessLevel: "remote" },
    'getRegions: accessLevel must be one of core, edge; got "remote"', "accessLevel"],
  ["getRegion: hasK8s as text", getRegionLookup, { name: "Frankfurt", hasK8s: "yes" },
    'getRegion: hasK8s must be true or false; got "yes"', "hasK8s"],
  ["getInstances: pageSize 0", getInstancesLookup, { projectId: 1, regionId: 76, pageSize: 0 },
    "getInstances: pageSize must be an integer from 1 to 1000; got 0", "pageSize"],
  ["getDelegationStatus: empty domain", getDelegationStatusLookup, { domain: "" },
    'getDelegationStatus: domain must be a non-empty string; got ""', "domain"],
  ["getResellerTotals: limit 101", getResellerTotalsLookup, { ...badInputTotals, limit: 101 },
    "getResellerTotals: limit must be an integer from 0 to 100; got 101", "limit"],
  ["getResellerTotals: offset -1", getResellerTotalsLookup, { ...badInputTotals, offset: -1 },
    "getResellerTotals: offset must be an integer from 0 to 100000; got -1", "offset"],
  ["getResellerTotals: offset 100001", getResellerTotalsLookup, { ...badInputTotals, offset: 100_001 },
    "getResellerTotals: offset must be an integer from 0 to 100000; got 100001", "offset"],
  ["getResellerTotals: unknown metric", getResellerTotalsLookup, { ...badInputTotals, metric: "bandwidth" },
    'getResellerTotals: metric must be one of domains, volume, requests, requests_clean; got "bandwidth"', "metric"],
  ["getResellerTotals: impossible date", getResellerTotalsLookup, { ...badInputTotals, from: "2026-02-30" },
    'getResellerTotals: from must be a date in the form YYYY-MM-DD (ISO 8601); got "2026-02-30"', "from"],
  ["getCurrentClient: an argument it does not take", getCurrentClientLookup, { id: 7 },
    "getCurrentClient: id is not an argument of getCurrentClient, which takes none", "id"],
  ["getTask: missing taskId", getTaskLookup, {},
    "getTask: taskId is required (a non-empty string); got undefined", "taskId"],
  ["getTasks: unknown state", getTasksLookup, { state: "DONE" },
    'getTasks: state must be one of NEW, RUNNING, FINISHED, ERROR (or a list of them); got "DONE"', "state"],
  ["getTasks: unknown orderBy", getTasksLookup, { orderBy: "newest" },
    'getTasks: orderBy must be one of asc, desc; got "newest"', "orderBy"],
  ["getK8sCluster: missing clusterName", getK8sClusterLookup, { projectId: 1, regionId: 76 },
    "getK8sCluster: clusterName is required (a non-empty string); got undefined", "clusterName"],
  ["getStreamingAiTasks: unknown ordering", getStreamingAiTasksLookup, { ordering: "newest" },
    'getStreamingAiTasks: ordering must be one of task_id, status, task_name, started_at; got "newest"', "ordering"],
  ["getStreamingAiTasks: unknown taskName", getStreamingAiTasksLookup, { taskName: "translation" },
    'getStreamingAiTasks: taskName must be one of transcription, content-moderation; got "translation"', "taskName"],
  // The public OpenAPI's query enums (provider/lookups/queryEnums.ts): a status an instance may
  // report is not a value the filter takes.
  ...(["RESCUE", "DELETED", "PASSWORD", "UNKNOWN"] as const).map((status): Case => [
    `getInstances: status ${status} (reported, not filtered by)`, getInstancesLookup, { projectId: 1, regionId: 76, status },
    `getInstances: status must be one of ACTIVE, BUILD, ERROR, HARD_REBOOT, MIGRATING, PAUSED, REBOOT, REBUILD, RESIZE, REVERT_RESIZE, SHELVED, SHELVED_OFFLOADED, SHUTOFF, SOFT_DELETED, SUSPENDED, VERIFY_RESIZE; got "${status}"`, "status"]),
  ["getInstances: status in lower case", getInstancesLookup, { projectId: 1, regionId: 76, status: "active" },
    /status must be one of ACTIVE, .*; got "active" \(did you mean "ACTIVE"\?\)$/, "status"],
  ["getTasks: the spec's upgrade task type", getTasksLookup, { taskType: "upgrade_k8s_cluster" },
    /^getTasks: taskType must be one of activate_ddos_profile, .*, upgrade_k8s_cluster_v2, .*; got "upgrade_k8s_cluster" \(did you mean "upgrade_k8s_cluster_v2"\?\)$/, "taskType"],
  ["getTasks: unknown task type", getTasksLookup, { taskType: "make_coffee" }, /^getTasks: taskType must be one of activate_ddos_profile, .*; got "make_coffee"$/, "taskType"],
  ["getTasks: lower-case state", getTasksLookup, { state: "running" }, /state must be one of NEW, RUNNING, FINISHED, ERROR \(or a list of them\); got "running" \(did you mean "RUNNING"\?\)$/, "state"],
];

describe("lookup argument validation", () => {
  it.each(cases)("%s", async (_title, def, args, message, argument) => {
    const err = await runLookup(def, args, envFor(sim)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LookupArgumentError);
    const e = err as LookupArgumentError;
    if (typeof message === "string") expect(e.message).toBe(message);
    else expect(e.message).toMatch(message);
    expect(e.argument).toBe(argument);
    expect(e.lookup).toBe(def.name);
    expect(sim.requests()).toEqual([]);
  });

  it("is checked before the connection settings (no key configured still names the argument)", async () => {
    const env = { ...envFor(sim), settings: { baseUrl: undefined, apiKey: undefined } };
    await expect(runLookup(getResellerTotalsLookup, { ...totals, limit: 101 }, env)).rejects.toThrow(/limit must be an integer from 0 to 100/);
  });

  it("accepts the boundaries limit 0, limit 100, offset 0 and offset 100000", () => {
    for (const extra of [{ limit: 0 }, { limit: 100 }, { offset: 0 }, { offset: 100000 }]) {
      expect(() => getResellerTotalsLookup.normalize({ ...totals, ...extra } as never)).not.toThrow();
    }
  });

  it("normalizes equivalent arguments to the same value (defaults, order, duplicates, trailing dot)", () => {
    const a = getResellerTotalsLookup.normalize({ ...totals, clientIds: [102, 101, 102] } as never);
    const b = getResellerTotalsLookup.normalize({ ...totals, clientIds: [101, 102], limit: 100, offset: 0 } as never);
    expect(a).toEqual(b);
    expect(getDelegationStatusLookup.normalize({ domain: "Example.COM." })).toEqual(getDelegationStatusLookup.normalize({ domain: "example.com" }));
    expect(getProjectsLookup.normalize(undefined)).toEqual(getProjectsLookup.normalize({ includeDeleted: false }));
  });

  it("reports a missing base URL naming both ways to set it, prefixed with the lookup", async () => {
    const env = { ...envFor(sim), settings: { baseUrl: undefined, apiKey: sim.apiKey } };
    await expect(runLookup(getResellerPingLookup, {}, env)).rejects.toThrow(
      /^getResellerPing: No API base URL is configured .*cloudplatform:baseUrl.*CLOUDPLATFORM_BASE_URL/,
    );
    expect(sim.requests()).toEqual([]);
  });
});
