/**
 * K8sClusterUpgrade's guards: the quota check at preview (`capacity.ts`: a second pool of each
 * pool's flavor and size asked of `check_limits`, an exceeded quota refused before any write,
 * an endpoint that cannot answer only warned about), and the health after an upgrade
 * (`health.ts`: `Provisioned` at the new version with every pool `Running` at its node count,
 * awaited within `timeoutMinutes`, then watched for `soakSeconds`; a failure is partial state
 * recording the version reached).
 *
 * One fake clock drives both the simulator and the lifecycle: each sleep of the lifecycle moves
 * it on, and the simulator's tasks progress in the same time, so a 30 s upgrade task and a
 * 10-minute soak take no real time.
 */
import { createClient, type CloudPlatformClient } from "../../../provider/api";
import type { WaiterClock } from "../../../provider/tasks";
import { createK8sClusterUpgradeLifecycle, type K8sClusterUpgradeInputs, type K8sClusterUpgradeOutputs } from "../../../provider/resources/k8sClusterUpgrade";
import { healthProblem, type PoolSizes } from "../../../provider/resources/k8s/health";
import type { UsableCluster } from "../../../provider/resources/k8s/types";
import type { LifecycleContext, LogOptions } from "../../../provider/resources/lifecycle";
import { PartialResourceError } from "../../../provider/resources/partial";
import { unknownInputs } from "../../../provider/adapters/unknownValues";
import { startSimulator, type RunningSimulator } from "../../../simulator";
import { admin, newKey, rejectionOf } from "../api/helpers";
import { quickRun } from "./context";

let fakeNow = Date.parse("2026-11-01T00:00:00Z");
let sim: RunningSimulator;
/** Runs at every sleep of the lifecycle, e.g. to change the cluster while it waits. */
let onSleep: (() => Promise<void>) | undefined;

const clock: WaiterClock = {
  now: () => fakeNow,
  sleep: async (ms, signal) => {
    if (signal?.aborted) return;
    fakeNow += Math.max(0, ms);
    await onSleep?.();
  },
};

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), now: () => fakeNow });
});
afterAll(() => sim.close());
beforeEach(async () => {
  await admin(sim, "POST", "/reset");
  onSleep = undefined;
});

const lifecycle = createK8sClusterUpgradeLifecycle({ clock });

interface Line {
  message: string;
  options: LogOptions | undefined;
}

function context(client: CloudPlatformClient = createClient({ baseUrl: sim.url, apiKey: sim.apiKey }), signal = new AbortController().signal) {
  const lines: Line[] = [];
  const ctx: LifecycleContext = { client: () => client, log: (message, options) => lines.push({ message, options }), run: quickRun(), signal };
  return { ctx, lines };
}

function inputs(over: Partial<K8sClusterUpgradeInputs> = {}): K8sClusterUpgradeInputs {
  return { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2", allowMultiStep: false, timeoutMinutes: 60, soakSeconds: 0, ...over };
}

const quotaChecks = () => sim.requests().filter((r) => r.method === "POST" && r.path.endsWith("/pools/check_limits"));
const upgradePosts = () => sim.requests().filter((r) => r.method === "POST" && r.path.endsWith("/upgrade"));
const clusterReads = (name: string) => sim.requests().filter((r) => r.method === "GET" && r.path.endsWith(`/${name}`));
const staging = (over: Partial<K8sClusterUpgradeInputs> = {}) => inputs({ projectId: 2, clusterName: "staging-cluster", version: "v1.30.4", ...over });

async function check(i: K8sClusterUpgradeInputs, ctx = context().ctx) {
  const news = i as unknown as Record<string, unknown>;
  return lifecycle.check(ctx, news, unknownInputs(news));
}

describe("the quota check at preview", () => {
  it("refuses an upgrade the quota cannot hold on version, naming the pool, the quota, its limit, usage and request and what to do; nothing written", async () => {
    const r = await check(staging());
    expect(r.failures).toEqual([
      {
        property: "version",
        reason:
          "cluster staging-cluster cannot be upgraded to v1.30.4 within its project's quota: the rolling replacement creates new nodes before it removes old ones, " +
          "so project 2 in region 76 must hold a second pool pool-1 (3 nodes of g1-standard-2-4) while it runs, and that would exceed vm_count (limit 4, usage 3, requested 3). " +
          "Raise the quota (vm_count to at least 6) or shrink pool pool-1 first, then run again. Nothing was written. [CLOUDPLATFORM_QUOTA]",
      },
    ]);
    expect(quotaChecks()).toHaveLength(1);
    expect(upgradePosts()).toEqual([]);
    expect(sim.state().tasks).toEqual([]);
  });

  it("passes once the quota holds the second pool", async () => {
    await admin(sim, "PUT", "/quotas/2", { vm_count: 6 });
    expect((await check(staging())).failures).toEqual([]);
    expect(quotaChecks()).toHaveLength(1);
  });

  it("checks a multi-step upgrade once, whatever the number of steps", async () => {
    await admin(sim, "PUT", "/quotas/1", { vm_count: 14 }); // 12 nodes in use, a second pool of 3 needs 15
    const r = await check(inputs({ clusterName: "legacy-cluster", version: "v1.30.4", allowMultiStep: true }));
    expect(r.failures.map((f) => f.reason)).toEqual([expect.stringContaining("vm_count (limit 14, usage 12, requested 3)")]);
    expect(quotaChecks()).toHaveLength(1);
  });

  it("asks nothing when no upgrade is planned (at the target, a refused plan) or one already runs", async () => {
    expect((await check(inputs({ version: "v1.30.4" }))).failures).toEqual([]);
    expect((await check(inputs({ version: "v1.29.8" }))).failures[0]?.reason).toContain("[CLOUDPLATFORM_DOWNGRADE]");
    await createClient({ baseUrl: sim.url, apiKey: sim.apiKey }).cloud.k8s.upgrade(2, 76, "staging-cluster", "v1.30.4");
    expect((await check(staging())).failures).toEqual([]);
    expect(quotaChecks()).toEqual([]);
  });

  const cannotAnswer: Array<[string, () => Promise<unknown>, string | undefined]> = [
    ["a platform without the endpoint (404)", () => admin(sim, "POST", "/unserved", { path: "/cloud/v2/k8s/clusters/2/76/pools/check_limits" }), undefined],
    ["a gateway's 501", () => admin(sim, "POST", "/unserved", { path: "/cloud/v2/k8s/clusters/2/76/pools/check_limits", status: 501 }), undefined],
    ["an HTML page with 200", () => admin(sim, "POST", "/malformed", { mode: "html200", pathPrefix: "/cloud/v2/k8s/clusters/2/76/pools/" }), undefined],
    ["JSON cut in half", () => admin(sim, "POST", "/malformed", { mode: "truncated", pathPrefix: "/cloud/v2/k8s/clusters/2/76/pools/" }), undefined],
    ["a key that may only read (403)", async () => undefined, "readOnly"],
  ];
  it.each(cannotAnswer)("%s: warns once, does not refuse, and does not ask again in the run", async (_what, arrange, key) => {
    await arrange();
    const client = createClient({ baseUrl: sim.url, apiKey: key ? sim.readOnlyApiKey : sim.apiKey });
    const { ctx, lines } = context(client);
    expect((await check(staging(), ctx)).failures).toEqual([]);
    expect((await check(staging({ clusterName: "staging-cluster" }), ctx)).failures).toEqual([]);
    const warnings = lines.filter((l) => l.options?.warning);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(/^staging-cluster: the quota check for the upgrade could not be answered \(POST \/cloud\/v2\/k8s\/clusters\/2\/76\/pools\/check_limits .+\); the upgrade goes on without it\./);
    expect(warnings[0]?.message).not.toContain(sim.apiKey);
    expect(quotaChecks()).toHaveLength(1);
  });
});

describe("the quota check of a cluster with several pools", () => {
  let multi: RunningSimulator;
  beforeAll(async () => {
    const pool = (name: string, flavor: string | null, nodes: number) => ({ name, ...(flavor ? { flavor_id: flavor } : {}), node_count: nodes, min_node_count: nodes, max_node_count: nodes, status: "Running" });
    multi = await startSimulator({
      apiKey: newKey(),
      seed: {
        projects: [{ id: 1, name: "default", is_default: true }],
        regions: [{ id: 76, display_name: "Luxembourg-2" }],
        k8sVersions: ["v1.30.4", "v1.31.2"],
        flavors: [
          { flavor_id: "g1-standard-2-4", vcpus: 2, ram: 4096 },
          { flavor_id: "g1-standard-4-8", vcpus: 4, ram: 8192 },
        ],
        quotas: { "1": { cpu_count: 14 } },
        clusters: [
          {
            id: "6f1c2d3e-0000-4000-8000-000000000001",
            name: "mixed",
            project_id: 1,
            region_id: 76,
            version: "v1.30.4",
            pools: [pool("small", "g1-standard-2-4", 3), pool("legacy", null, 2), pool("large", "g1-standard-4-8", 2)],
          },
        ],
      },
    });
  });
  afterAll(() => multi.close());

  it("asks once per pool it can size, refuses each pool that would exceed a quota, and warns about a pool without flavor", async () => {
    const { ctx, lines } = context(createClient({ baseUrl: multi.url, apiKey: multi.apiKey }));
    const r = await check(inputs({ clusterName: "mixed" }), ctx);
    // 3 x 2 + 2 x 4 = 14 vCPUs in use: any second pool exceeds cpu_count 14.
    expect(r.failures.map((f) => f.reason.match(/second pool (\w+) \(.*?\).*?exceed (.*?)\. /)?.slice(1))).toEqual([
      ["small", "cpu_count (limit 14, usage 14, requested 6)"],
      ["large", "cpu_count (limit 14, usage 14, requested 8)"],
    ]);
    expect(lines.filter((l) => l.options?.warning).map((l) => l.message)).toEqual(["mixed: pools legacy report no flavor or node count, so their quota is not checked"]);
    expect(multi.requests().filter((q) => q.path.endsWith("/check_limits"))).toHaveLength(2);
  });
});

describe("health after the upgrade", () => {
  const unhealthy = (body: Record<string, unknown>) => admin(sim, "POST", "/clusters/1/76/prod-cluster/pools/pool-1/unhealthy", body);

  it("waits for every pool to be Running with its node count again, with progress on the row, then succeeds", async () => {
    await unhealthy({ status: "Scaling up", node_count: 4 });
    const { ctx, lines } = context();
    const waiting = () => lines.filter((l) => l.options?.status && /waiting for the cluster to be healthy/.test(l.message));
    let repaired = false;
    onSleep = async () => {
      if (repaired || waiting().length === 0) return;
      repaired = true;
      await unhealthy({ after_upgrade: false, status: "Running", node_count: 3 });
    };
    const { outs } = await lifecycle.create(ctx, inputs());
    expect(outs).toMatchObject({ version: "v1.31.2", status: "Provisioned", upgradePath: ["v1.31.2"] });
    expect(waiting().map((l) => l.message)).toEqual([expect.stringMatching(/^prod-cluster: waiting for the cluster to be healthy at v1\.31\.2: pool pool-1 reports status Scaling up, not Running, \d+s elapsed$/)]);
    expect(lines.map((l) => l.message)).toContainEqual(expect.stringMatching(/^prod-cluster: Provisioned at v1\.31\.2 with every pool ready \(task /));
  });

  it("fails as partial state recording the version reached when a pool is not ready within timeoutMinutes", async () => {
    await unhealthy({ status: "Error" });
    const { ctx } = context();
    const err = await rejectionOf(lifecycle.create(ctx, inputs({ timeoutMinutes: 2 })));
    expect(err).toBeInstanceOf(PartialResourceError);
    expect(err.message).toMatch(/^prod-cluster: timeoutMinutes \(2, per upgrade step\) ran out waiting for the cluster to be healthy at v1\.31\.2: pool pool-1 reports status Error, not Running\. /);
    expect(err.message).toContain("It reached v1.31.2 by the path v1.30.4 -> v1.31.2.");
    expect((err as PartialResourceError).properties).toMatchObject({ version: "v1.31.2", upgradePath: ["v1.31.2"] });
  });

  it("with soakSeconds watches the healthy cluster that long, reading it every few seconds, before it reports success", async () => {
    const { ctx, lines } = context();
    const { outs } = await lifecycle.create(ctx, inputs({ soakSeconds: 600 }));
    expect(outs).toMatchObject({ version: "v1.31.2", soakSeconds: 600 });
    const soakLines = lines.filter((l) => /watching it for soakSeconds \(600s\)/.test(l.message));
    expect(soakLines.every((l) => l.options?.status)).toBe(true);
    // At most 15 s apart over 600 s: 40 reads and the few of the first, quicker polls.
    const reads = clusterReads("prod-cluster").length;
    expect(reads).toBeGreaterThanOrEqual(40);
    expect(reads).toBeLessThan(60);
    expect(lines.map((l) => l.message)).toContain("prod-cluster: stayed healthy at v1.31.2 for soakSeconds (600s)");
  });

  it("fails when a pool leaves the healthy state during the soak, recording the version; the next update watches again and passes once healthy, with no second upgrade", async () => {
    await unhealthy({ after_reads: 2, status: "Error", node_count: 2 });
    const { ctx } = context();
    const err = await rejectionOf(lifecycle.create(ctx, inputs({ soakSeconds: 600 })));
    expect(err).toBeInstanceOf(PartialResourceError);
    expect(err.message).toMatch(/^prod-cluster: the cluster left the healthy state \d+s into soakSeconds \(600s\): pool pool-1 reports status Error, not Running\. /);
    const recorded = (err as PartialResourceError).properties as unknown as K8sClusterUpgradeOutputs;
    expect(recorded).toMatchObject({ version: "v1.31.2", upgradePath: ["v1.31.2"], soakSeconds: 0 });
    expect(await lifecycle.diff("1/76/prod-cluster", recorded, inputs({ soakSeconds: 600 }))).toEqual({ changes: true, diffs: ["soakSeconds"] });

    // Still unhealthy: the next update (the engine runs one after partial state) fails again.
    const again = await rejectionOf(lifecycle.update(context().ctx, "1/76/prod-cluster", recorded, inputs({ soakSeconds: 600, timeoutMinutes: 1 })));
    expect(again.message).toContain("timeoutMinutes (1) ran out waiting for the cluster to be healthy at v1.31.2: pool pool-1 reports status Error");
    // Repaired: it waits, watches and succeeds.
    await unhealthy({ after_upgrade: false, status: "Running", node_count: 3 });
    const outs = await lifecycle.update(context().ctx, "1/76/prod-cluster", recorded, inputs({ soakSeconds: 600 }));
    expect(outs).toMatchObject({ version: "v1.31.2", upgradePath: [] });
    expect(upgradePosts()).toHaveLength(1);
  });

  it("stops watching when the operation is cancelled, as partial state", async () => {
    const abort = new AbortController();
    const { ctx, lines } = context(undefined, abort.signal);
    onSleep = async () => {
      if (lines.some((l) => /watching it for soakSeconds/.test(l.message))) abort.abort();
    };
    const err = await rejectionOf(lifecycle.create(ctx, inputs({ soakSeconds: 600 })));
    expect(err).toBeInstanceOf(PartialResourceError);
    expect(err.message).toContain("prod-cluster: stopped while watching the cluster during soakSeconds");
    expect((err as PartialResourceError).properties).toMatchObject({ version: "v1.31.2" });
  });

  it("without soakSeconds, a cluster already at its target is not read again", async () => {
    const { ctx } = context();
    await lifecycle.create(ctx, inputs({ version: "v1.30.4" }));
    expect(clusterReads("prod-cluster")).toHaveLength(1);
  });
});

describe("what healthy means", () => {
  const pool = (over: Record<string, unknown> = {}) => ({ id: "p1", name: "pool-1", flavorId: "f", nodeCount: 3, minNodeCount: 3, maxNodeCount: 3, status: "Running", ...over });
  const cluster = (over: Record<string, unknown> = {}, pools = [pool()]) => ({ id: "c", name: "c", version: "v1.31.2", status: "Provisioned", taskId: null, pools, ...over }) as unknown as UsableCluster;
  const before: PoolSizes = new Map([["p1", 3]]);
  const cases: Array<[string, UsableCluster, string | undefined]> = [
    ["Provisioned at the version, the pool Running at its count", cluster(), undefined],
    ["a pool status in another case", cluster({}, [pool({ status: "running" })]), undefined],
    ["no pools", cluster({}, []), undefined],
    ["another version", cluster({ version: "v1.30.4" }), "the cluster reports version v1.30.4, not v1.31.2"],
    ["the cluster Provisioning", cluster({ status: "Provisioning" }), "the cluster reports status Provisioning, not Provisioned"],
    ["a pool in a status we do not know", cluster({}, [pool({ status: "Resizing" })]), "pool pool-1 reports status Resizing, not Running"],
    ["a pool without status", cluster({}, [pool({ status: null })]), "pool pool-1 reports status (none), not Running"],
    ["a fixed-size pool short of a node", cluster({}, [pool({ nodeCount: 2, minNodeCount: 2, maxNodeCount: 2 })]), "pool pool-1 runs 2 of its 3 nodes"],
    ["a fixed-size pool with a node more", cluster({}, [pool({ nodeCount: 4, minNodeCount: 4, maxNodeCount: 4 })]), "pool pool-1 runs 4 of its 3 nodes"],
    ["an autoscaling pool within its range", cluster({}, [pool({ nodeCount: 5, minNodeCount: 3, maxNodeCount: 5 })]), undefined],
    ["an autoscaling pool below its range", cluster({}, [pool({ nodeCount: 2, minNodeCount: 3, maxNodeCount: 5 })]), "pool pool-1 runs 2 nodes, outside its autoscaling range 3..5"],
    ["a pool without node count", cluster({}, [pool({ nodeCount: null })]), "pool pool-1 reports no node count"],
    ["a pool added since (no count before)", cluster({}, [pool(), pool({ id: "p2", name: "pool-2", nodeCount: 1, minNodeCount: 1, maxNodeCount: 1 })]), undefined],
  ];
  it.each(cases)("%s", (_what, c, problem) => {
    expect(healthProblem(c, "v1.31.2", before)).toBe(problem);
  });
});

describe("soakSeconds as an input", () => {
  const bad: Array<[unknown]> = [[-1], [1.5], ["60"], [86_401]];
  it.each(bad)("%j is refused offline, naming the field and the allowed values", async (soakSeconds) => {
    const r = await check({ ...inputs(), soakSeconds } as unknown as K8sClusterUpgradeInputs);
    expect(r.failures).toEqual([{ property: "soakSeconds", reason: `soakSeconds must be a whole number of seconds from 0 to 86400 (a day), got ${JSON.stringify(soakSeconds)}` }]);
    expect(sim.requests()).toEqual([]);
  });

  it("changes in place with no API write, and a state without it reads as 0", async () => {
    const { ctx } = context();
    const { id, outs } = await lifecycle.create(ctx, inputs({ version: "v1.30.4" }));
    expect(await lifecycle.diff(id, outs, inputs({ version: "v1.30.4", soakSeconds: 60 }))).toEqual({ changes: true, diffs: ["soakSeconds"] });
    const { soakSeconds: _s, ...older } = outs;
    expect(await lifecycle.diff(id, older as K8sClusterUpgradeOutputs, inputs({ version: "v1.30.4" }))).toEqual({ changes: false });
  });
});
