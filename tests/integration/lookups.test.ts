/**
 * Lookups in real Pulumi runs (Automation API, the offline CLI) against the simulator seed.
 *
 * One program uses every lookup (plain and Output forms) and returns the results as stack
 * outputs; the test checks each against the seed and the simulator's request log: identical
 * lookups share one request, lists are paged, the delegation-status 429s are waited out, a
 * lookup whose input is unknown during preview makes no request, and the API key (set as a
 * secret) appears nowhere in the state. A second program proves that invalid arguments fail the
 * preview, naming the argument, without any request to that endpoint.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RunningSimulator } from "../../simulator";
import { startSimulator } from "../../simulator";
import {
  getCurrentClient,
  getDelegationStatus,
  getDelegationStatusOutput,
  getInstances,
  getK8sCluster,
  getK8sClusterOutput,
  getK8sClusters,
  getK8sClustersOutput,
  getK8sUpgradeVersionsOutput,
  getProject,
  getProjectOutput,
  getProjects,
  getRegion,
  getRegions,
  getRegionsOutput,
  getResellerPing,
  getResellerTotals,
  getResellerTotalsOutput,
  getStreamingAiTasks,
  getTask,
  getTasks,
  getTasksOutput,
} from "../../sdk/nodejs";
import * as fs from "fs";
import * as path from "path";
import type { Stack } from "@pulumi/pulumi/automation";
import { createTestStack, TestStack } from "./harness";
import { seed, SEED_REQUESTS_101_102, SEED_REQUESTS_101_102_TOTAL } from "../unit/lookups/helpers";

/** A dynamic resource that echoes its input; `derived` is unknown in the first preview. */
const echoProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: { value: string }) {
    return { id: `echo-${inputs.value}`, outs: { value: inputs.value, derived: inputs.value } };
  },
  async diff(_id: string, olds: { value: string }, news: { value: string }) {
    return { changes: olds.value !== news.value };
  },
  async read(id: string, props: { value: string }) {
    return { id, props: { value: props.value, derived: props.value } };
  },
};

class Echo extends pulumi.dynamic.Resource {
  declare readonly value: pulumi.Output<string>;
  /** An output that is not an input: unknown while previewing the resource's creation. */
  declare readonly derived: pulumi.Output<string>;
  constructor(name: string, args: { value: pulumi.Input<string> }) {
    super(echoProvider, name, { value: args.value, derived: undefined }, undefined, "lookupstest", "Echo");
  }
}

const DOMAINS = ["example.com", "not-delegated.example", "one.example", "two.example", "three.example"];
const TOTALS = { metric: "requests" as const, clientIds: [101, 102], from: "2026-09-01", to: "2026-09-15" };

// Pulumi runs take seconds each; the project-level testTimeout is not applied to this file.
jest.setTimeout(600_000);

let sim: RunningSimulator;
const stacks: TestStack[] = [];

beforeAll(async () => {
  // Two delegation-status requests per 2 s: five concurrent lookups must meet 429s.
  sim = await startSimulator({ delegationRateLimit: { requests: 2, perSeconds: 2 } });
});
afterAll(async () => {
  for (const t of stacks) await t.cleanup().catch(() => undefined);
  await sim?.close();
});

async function clearLog(): Promise<void> {
  const res = await fetch(`${sim.url}/__admin/requests`, { method: "DELETE" });
  expect(res.ok).toBe(true);
}

function logTo(prefix: string) {
  return sim.requests().filter((r) => r.path.startsWith(prefix));
}

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

function connection() {
  return {
    "cloudplatform:baseUrl": { value: sim.url },
    "cloudplatform:apiKey": { value: sim.apiKey, secret: true },
  };
}

describe("lookups in a Pulumi program", () => {
  it("returns every lookup's result, shares identical requests, pages, waits out 429s and keeps the key out of state", async () => {
    const created = await fetch(`${sim.url}/__admin/tasks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task_type: "create_vm", project_id: 1, region_id: 76 }),
    });
    const taskId = ((await created.json()) as { tasks: string[] }).tasks[0] as string;

    const t = await createTestStack({
      projectName: "lookups-it",
      config: connection(),
      program: async () => {
        // Three identical lookups: one request. getProject reads the same project list.
        const [p1, p2, p3] = await Promise.all([getProjects(), getProjects({}), getProjects({ includeDeleted: false })]);
        const defaultProject = await getProject();
        const staging = getProjectOutput({ name: pulumi.output("staging") });
        const k8sRegions = getRegionsOutput({ hasK8s: true });
        const k8sRegion = await getRegion({ hasK8s: true, hasDbaas: true });
        const regionIds = (await getRegions({ includeInactive: true })).ids;
        const instances = await getInstances({ projectId: defaultProject.id, regionId: k8sRegion.id, pageSize: 10 });
        // Several distinct names at once, plain and Output forms: the rate limit answers 429s.
        const delegation = pulumi.all(
          DOMAINS.map((domain, i) => (i % 2 === 0 ? pulumi.output(getDelegationStatus({ domain })) : getDelegationStatusOutput({ domain }))),
        );
        const totals = getResellerTotalsOutput({ ...TOTALS, clientIds: [pulumi.output(101), 102], limit: 5 });
        const totalsPlain = await getResellerTotals(TOTALS);
        const ping = await getResellerPing();
        const me = await getCurrentClient();
        const task = await getTask({ taskId });
        const tasks = getTasksOutput({ projectId: 1, regionId: 76 });
        const tasksFinishedOrNot = await getTasks({ projectId: 1, state: ["NEW", "RUNNING", "FINISHED", "ERROR"] });
        const cluster = await getK8sCluster({ projectId: 1, regionId: 76, clusterName: "prod-cluster" });
        const clusters = await getK8sClusters({ projectId: 1, regionId: 76 });
        const legacy = getK8sClustersOutput({ projectId: pulumi.output(1), regionId: 76, name: "LEGACY" });
        const upgrades = getK8sUpgradeVersionsOutput({ projectId: 1, regionId: 76, clusterName: "prod-cluster" });
        const ai = await getStreamingAiTasks({ pageSize: 10 });
        // Unknown in the first preview (a new resource's output): no request then.
        const echo = new Echo("cluster-name", { value: "demo-cluster" });
        const demo = getK8sClusterOutput({ projectId: 1, regionId: 76, clusterName: echo.derived });
        return {
          projectIds: [p1.ids, p2.ids, p3.ids],
          defaultProject: { id: defaultProject.id, name: defaultProject.name, isDefault: defaultProject.isDefault },
          stagingId: staging.id,
          k8sRegionIds: k8sRegions.ids,
          k8sRegion: { id: k8sRegion.id, state: k8sRegion.state, hasK8s: k8sRegion.hasK8s },
          regionIds,
          instanceNames: instances.instances.map((i) => i.name),
          delegation: delegation.apply((list) => list.map((d) => ({ domain: d.domain, zoneExists: d.zoneExists, service: d.serviceAuthorizedCount, servers: d.authoritativeNameServers.map((s) => s.name) }))),
          totals: totals.rows,
          totalsTotal: totals.total,
          totalsPlain: totalsPlain.rows,
          ping: ping.message,
          clientId: me.id,
          clientEmail: me.email,
          task: { id: task.id, taskType: task.taskType },
          taskIds: tasks.ids,
          allTaskIds: tasksFinishedOrNot.ids,
          cluster: { version: cluster.version, status: cluster.status },
          upgradeVersions: upgrades.versions,
          clusterNames: clusters.names,
          legacyClusters: legacy.clusters,
          aiTaskIds: ai.ids,
          demoVersion: demo.version,
        };
      },
    });
    stacks.push(t);
    const { stack } = t;

    // Preview: lookups run, except the one whose input is still unknown.
    await clearLog();
    const preview = await stack.preview({ color: "never" });
    expect(preview.changeSummary).toEqual({ create: 2 });
    expect(logTo("/iam/clients/me")).toHaveLength(1);
    expect(logTo("/cloud/v2/k8s/clusters/1/76/prod-cluster")).toHaveLength(2); // cluster + upgrade_versions
    expect(logTo("/cloud/v2/k8s/clusters/1/76/demo-cluster")).toEqual([]);

    // Up: every lookup, once per distinct request.
    await clearLog();
    const up = await stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    const out = (name: string) => {
      const o = up.outputs[name];
      expect(o).toBeDefined();
      expect(o?.secret).toBe(false);
      return o?.value;
    };

    expect(out("projectIds")).toEqual([[1, 2, 3], [1, 2, 3], [1, 2, 3]]);
    expect(logTo("/cloud/v1/projects")).toHaveLength(1);
    expect(out("defaultProject")).toEqual({ id: 1, name: "default", isDefault: true });
    expect(out("stagingId")).toBe(2);

    expect([...(out("k8sRegionIds") as number[])].sort((a, b) => a - b)).toEqual([38, 76]);
    expect(out("k8sRegion")).toEqual({ id: 76, state: "ACTIVE", hasK8s: true });
    expect([...(out("regionIds") as number[])].sort((a, b) => a - b)).toEqual([8, 38, 76, 100, 116]);
    expect(logTo("/cloud/v1/regions")).toHaveLength(1);

    expect(out("instanceNames")).toEqual(Array.from({ length: 25 }, (_, i) => `web-${String(i + 1).padStart(2, "0")}`));
    // Pages of 10, each after the first re-reading the last 3 of the one before (the pager's overlap).
    expect(logTo("/cloud/v1/instances/1/76").map((r) => r.query["offset"])).toEqual(["0", "7", "14", "21"]);

    const delegation = out("delegation") as { domain: string; zoneExists: boolean; service: number; servers: string[] }[];
    expect(delegation.map((d) => d.domain)).toEqual(DOMAINS);
    const seeded = seed().delegation;
    expect(delegation[0]).toEqual({
      domain: "example.com",
      zoneExists: true,
      service: seeded["example.com"].service_authorized_count,
      servers: seeded["example.com"].authoritative_name_servers.map((s: { name: string }) => s.name),
    });
    expect(delegation[1]?.zoneExists).toBe(false);
    const dns = logTo("/dns/v2/analyze");
    expect(dns.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    expect(dns.filter((r) => r.status === 200)).toHaveLength(DOMAINS.length);

    expect(out("totals")).toEqual(SEED_REQUESTS_101_102);
    expect(out("totalsPlain")).toEqual(SEED_REQUESTS_101_102);
    expect(out("totalsTotal")).toBe(SEED_REQUESTS_101_102_TOTAL);
    // limit 5 over 14 rows, each page re-reading the last row of the one before: offsets 0, 4,
    // 8, 12; plus one request with the default limit.
    expect(logTo("/waap/v1/prebilling/total/requests").map((r) => r.query["offset"] ?? "")).toEqual(
      expect.arrayContaining(["0", "4", "8", "12"]),
    );

    expect(out("ping")).toBe("pong");
    expect(out("clientId")).toBe(7350925);
    expect(out("clientEmail")).toBe("platform@example.com");
    expect(out("task")).toEqual({ id: taskId, taskType: "create_vm" });
    expect(out("taskIds")).toEqual([taskId]);
    expect(out("allTaskIds")).toEqual([taskId]);
    expect(out("cluster")).toEqual({ version: "v1.30.4", status: "Provisioned" });
    expect(out("upgradeVersions")).toEqual(["v1.31.2"]);
    const seededClusters = (seed().clusters as { id: string; name: string; project_id: number; region_id: number }[]).filter(
      (c) => c.project_id === 1 && c.region_id === 76,
    );
    expect(out("clusterNames")).toEqual(seededClusters.map((c) => c.name));
    const legacyCluster = seededClusters.find((c) => c.name === "legacy-cluster");
    expect(out("legacyClusters")).toEqual([{ id: legacyCluster?.id, name: "legacy-cluster", version: "v1.28.12", status: "Provisioned", taskId: null }]);
    expect([...(out("aiTaskIds") as string[])].sort()).toEqual((seed().aiTasks as { task_id: string }[]).map((x) => x.task_id).sort());
    // 27 tasks in pages of at most 10, each after the first starting 3 tasks early (page number and size chosen per page).
    expect(logTo("/streaming/ai/tasks").map((r) => `${r.query["page"]}/${r.query["limit"]}`)).toEqual(["1/10", "2/7", "2/10", "3/8", "3/10"]);
    expect(out("demoVersion")).toBe("v1.30.4");
    expect(logTo("/cloud/v2/k8s/clusters/1/76/demo-cluster")).toHaveLength(1);

    // The key (a secret config value) never reaches the stored state in plain text. (The
    // Automation API's exportStack decrypts secrets, so read the backend's file instead.)
    const stateFiles = listFiles(path.join(t.dir, "backend")).filter((f) => f.endsWith(".json"));
    expect(stateFiles.length).toBeGreaterThan(0);
    for (const f of stateFiles) expect(fs.readFileSync(f, "utf8")).not.toContain(sim.apiKey);
    expect(JSON.stringify(up.outputs)).not.toContain(sim.apiKey);

    // A second run starts with an empty cache: it reads again (once).
    await clearLog();
    const again = await stack.preview({ color: "never" });
    expect(again.changeSummary).toEqual({ same: 2 });
    expect(logTo("/cloud/v1/projects")).toHaveLength(1);
  });
});

describe("invalid lookup arguments in a Pulumi program", () => {
  // Run as a real program in the language host's own process: a failing lookup then fails the
  // run through Pulumi's own error handling, as it does for users (inline programs share the
  // test runner's process, whose unhandled-rejection handling is the test runner's).
  const cases: [string, string, string, RegExp][] = [
    ["bad metric", "metric", "/waap/reseller/v1/prebilling", /getResellerTotals: metric must be one of domains, volume, requests, requests_clean; got "bogus"/],
    ["limit 101 (Output form)", "limit", "/waap/reseller/v1/prebilling", /getResellerTotals: limit must be an integer from 0 to 100; got 101/],
    ["offset -1", "offset", "/waap/reseller/v1/prebilling", /getResellerTotals: offset must be an integer from 0 to 100000; got -1/],
    ["end before start", "dates", "/waap/reseller/v1/prebilling", /getResellerTotals: to must be after from \(to is exclusive\); got from "2026-09-15", to "2026-09-01"/],
    ["empty domain", "domain", "/dns/", /getDelegationStatus: domain must be a non-empty string; got ""/],
  ];

  let t: TestStack | undefined;
  let stack: Stack;
  beforeAll(async () => {
    // The project (and its stack config) lives in the temp dir; `main` is the program's folder.
    t = await createTestStack({
      projectName: "lookups-invalid",
      main: path.join(__dirname, "programs/lookups-invalid"),
      envVars: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
      config: connection(),
    });
    stack = t.stack;
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it.each(cases)("%s fails the preview, naming the argument, with no request to the endpoint", async (_name, which, endpoint, message) => {
    await stack.setConfig("lookups-invalid:case", { value: which });
    await clearLog();
    const err = await stack.preview({ color: "never" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeDefined();
    expect(String((err as Error).message)).toMatch(message);
    expect(String((err as Error).message)).not.toContain(sim.apiKey);
    expect(logTo("/waap/ping")).toHaveLength(1);
    expect(logTo(endpoint)).toEqual([]);
  });
});
