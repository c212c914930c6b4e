/**
 * Each lookup against the simulator seed: results, paging (with small page sizes and caps),
 * reseller totals against sums computed from the seed, the delegation-status rate limit waited
 * out within the budget (on an injected clock, no real waiting) and the clear error when the
 * budget runs out, and no key in any result.
 */
import type { RunningSimulator } from "../../../simulator";
import { RateLimitError } from "../../../provider/api/errors";
import { runLookup } from "../../../provider/lookups/runtime";
import {
  getCurrentClientLookup,
  getDelegationStatusLookup,
  getInstancesLookup,
  getK8sClusterLookup,
  getK8sClustersLookup,
  getK8sUpgradeVersionsLookup,
  getResellerPingLookup,
  getResellerTotalsLookup,
  getStreamingAiTasksLookup,
  getTaskLookup,
  getTasksLookup,
} from "../../../provider/lookups";
import { admin } from "../api/helpers";
import { envFor, requestsTo, seed, SEED_REQUESTS_101_102, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => sim.reset());

async function adminTask(body: object): Promise<string> {
  const res = await fetch(`${sim.url}/__admin/tasks`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`admin task: ${res.status} ${await res.text()}`);
  const json = (await res.json()) as { tasks: string[] };
  return json.tasks[0] as string;
}

async function finishTask(id: string): Promise<void> {
  const res = await fetch(`${sim.url}/__admin/tasks/${id}/finish`, { method: "POST" });
  if (!res.ok) throw new Error(`admin finish: ${res.status} ${await res.text()}`);
}

describe("getInstances", () => {
  it("pages through all 25 instances of project 1 in region 76 with a small page size", async () => {
    const r = await runLookup(getInstancesLookup, { projectId: 1, regionId: 76, pageSize: 10 }, envFor(sim));
    expect(r.instances).toHaveLength(25);
    expect(r.instances.map((i) => i.name)).toEqual(Array.from({ length: 25 }, (_, i) => `web-${String(i + 1).padStart(2, "0")}`));
    expect(new Set(r.ids).size).toBe(25);
    const pages = requestsTo(sim, "/cloud/v1/instances/1/76");
    // Each page after the first re-reads the last 3 of the one before (the pager's overlap).
    expect(pages.map((p) => p.query["offset"])).toEqual(["0", "7", "14", "21"]);
    expect(pages.every((p) => p.query["limit"] === "10")).toBe(true);
  });

  it("stops at maxResults", async () => {
    const r = await runLookup(getInstancesLookup, { projectId: 1, regionId: 76, pageSize: 10, maxResults: 12 }, envFor(sim));
    expect(r.instances.map((i) => i.name)).toEqual(Array.from({ length: 12 }, (_, i) => `web-${String(i + 1).padStart(2, "0")}`));
    expect(requestsTo(sim, "/cloud/v1/instances")).toHaveLength(2);
  });

  it("returns 3 for project 2 and none for project 3", async () => {
    const env = envFor(sim);
    expect((await runLookup(getInstancesLookup, { projectId: 2, regionId: 76 }, env)).instances).toHaveLength(3);
    expect((await runLookup(getInstancesLookup, { projectId: 3, regionId: 76 }, env)).instances).toEqual([]);
  });
});

describe("getResellerTotals / getResellerPing", () => {
  it("sums clients 101 and 102 per day over [from, to)", async () => {
    const r = await runLookup(getResellerTotalsLookup, { metric: "requests", clientIds: [102, 101], from: "2026-09-01", to: "2026-09-08" }, envFor(sim));
    expect(r.rows).toEqual(SEED_REQUESTS_101_102.slice(0, 7));
    expect(r.total).toBe(1159240);
    expect(r.clientIds).toEqual([101, 102]);
    const [req] = requestsTo(sim, "/waap/v1/prebilling/total/requests");
    expect(req?.query).toMatchObject({ client_ids: ["101", "102"], from: "2026-09-01", to: "2026-09-08" });
  });

  it("pages through a long range with a small limit, from an offset, up to maxResults", async () => {
    const env = envFor(sim);
    const r = await runLookup(getResellerTotalsLookup, { metric: "domains", clientIds: [101], from: "2026-09-01", to: "2026-11-30", limit: 30 }, env);
    // Client 101's seeded domains: 90 days from 2026-09-01 to 2026-11-29, 373 in all.
    expect(r.rows).toHaveLength(90);
    expect(r.rows.slice(0, 3)).toEqual([
      { date: "2026-09-01", amount: 3 },
      { date: "2026-09-02", amount: 5 },
      { date: "2026-09-03", amount: 6 },
    ]);
    expect(r.rows[89]?.date).toBe("2026-11-29");
    expect(r.total).toBe(373);
    // Each page after the first re-reads the last 5 rows of the one before (rows told apart by
    // date), so the list continues where it was even if the report moved; a short page ends it.
    expect(requestsTo(sim, "/waap/v1/prebilling").map((q) => q.query["offset"])).toEqual(["0", "25", "50", "75"]);
    const capped = await runLookup(getResellerTotalsLookup, { metric: "domains", clientIds: [101], from: "2026-09-01", to: "2026-11-30", limit: 30, offset: 5, maxResults: 40 }, env);
    expect(capped.rows).toEqual(r.rows.slice(5, 45));
    expect(capped.rows[0]).toEqual({ date: "2026-09-06", amount: 4 });
    expect(capped.rows[39]).toEqual({ date: "2026-10-15", amount: 3 });
    expect(capped.total).toBe(165);
  });

  it("with limit 0 makes one request and returns no rows", async () => {
    const r = await runLookup(getResellerTotalsLookup, { metric: "volume", from: "2026-09-01", to: "2026-09-03", limit: 0 }, envFor(sim));
    expect(r.rows).toEqual([]);
    expect(requestsTo(sim, "/waap/v1/prebilling")).toHaveLength(1);
  });

  it("ping answers pong", async () => {
    expect(await runLookup(getResellerPingLookup, {}, envFor(sim))).toEqual({ message: "pong", healthy: true });
  });
});

describe("getDelegationStatus", () => {
  it("returns the seed's status of example.com and a zero result for an unknown zone", async () => {
    const env = envFor(sim);
    const s = await runLookup(getDelegationStatusLookup, { domain: "Example.com." }, env);
    expect(s).toEqual({ domain: "example.com", ...camel(seed().delegation["example.com"]) });
    expect(s.zoneExists).toBe(true);
    expect(s.serviceAuthorizedCount).toBe(2);
    const unknown = await runLookup(getDelegationStatusLookup, { domain: "nothing-here.example" }, env);
    expect(unknown).toMatchObject({ zoneExists: false, serviceAuthorizedCount: 0, authoritativeNameServers: [] });
  });

  it("the rate-limit budget is the only bound on 429 waits: 60 waits of 1 s fit in 90 s, not in 30 s", async () => {
    let now = 0;
    const waits: number[] = [];
    const clock = { now: () => now, sleep: async (ms: number) => { waits.push(ms); now += ms; } };
    const path = "/dns/v2/analyze/example.com/delegation-status";
    await admin(sim.url, "POST", "/faults", { burst429: { count: 60, retryAfterSeconds: 1 }, path });
    const ok = await runLookup(getDelegationStatusLookup, { domain: "example.com", rateLimitBudgetSeconds: 90 }, envFor(sim, clock));
    expect(ok.zoneExists).toBe(true);
    expect(waits).toEqual(Array(60).fill(1000));
    expect(requestsTo(sim, path).map((r) => r.status)).toEqual([...Array(60).fill(429), 200]);

    waits.length = 0;
    await admin(sim.url, "POST", "/faults", { burst429: { count: 60, retryAfterSeconds: 1 }, path });
    const err = await runLookup(getDelegationStatusLookup, { domain: "example.com", rateLimitBudgetSeconds: 30 }, envFor(sim, clock)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as Error).message).toContain("rate-limit budget of 30s");
    expect(waits).toEqual(Array(30).fill(1000));
  });

  it("says each retry wait on the progress line, in the SDK's and the plugin's words, and still tells the caller's onRetry", async () => {
    let now = 0;
    const retried: number[] = [];
    const lines: string[] = [];
    const path = "/dns/v2/analyze/example.com/delegation-status";
    await admin(sim.url, "POST", "/faults", { burst429: { count: 2, retryAfterSeconds: 2 }, path });
    const clientOptions = { now: () => now, sleep: async (ms: number) => void (now += ms), onRetry: (e: { attempt: number }) => void retried.push(e.attempt) };
    await runLookup(getDelegationStatusLookup, { domain: "example.com" }, { ...envFor(sim, clientOptions), progress: (line) => lines.push(line) });
    const waited = `GET ${path} failed (status 429: rate limited, the request was not acted on); retrying in 2s`;
    // 429s that pace us use up no attempt: the retry keeps the number, and the line names none.
    expect(lines).toEqual([waited, waited]);
    expect(retried).toEqual([1, 1]);
  });

  describe("rate limit (injected clock)", () => {
    let clocked: RunningSimulator;
    let now = Date.parse("2026-10-01T00:00:00Z");
    const waits: number[] = [];
    const clock = { now: () => now, sleep: async (ms: number) => { waits.push(ms); now += ms; } };
    beforeAll(async () => {
      clocked = await start({ now: () => now, delegationRateLimit: { requests: 1, perSeconds: 10 } });
    });
    afterAll(async () => {
      await clocked.close();
    });
    beforeEach(() => {
      clocked.reset();
      waits.length = 0;
    });

    it("waits out 429s (Retry-After) and succeeds", async () => {
      const env = envFor(clocked, clock);
      const names = ["example.com", "not-delegated.example", "a.example"];
      const results = [];
      for (const domain of names) results.push(await runLookup(getDelegationStatusLookup, { domain }, env));
      expect(results.map((r) => r.domain)).toEqual(names);
      expect(results[1]?.zoneExists).toBe(false);
      const log = requestsTo(clocked, "/dns/v2/analyze");
      expect(log.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(2);
      expect(log.filter((r) => r.status === 200)).toHaveLength(3);
      expect(waits.length).toBeGreaterThanOrEqual(2);
      expect(waits.every((w) => w >= 1000)).toBe(true);
    });

    it("fails clearly when the budget is smaller than the server's Retry-After", async () => {
      const env = envFor(clocked, clock);
      await runLookup(getDelegationStatusLookup, { domain: "example.com" }, env);
      const err = await runLookup(getDelegationStatusLookup, { domain: "b.example", rateLimitBudgetSeconds: 5 }, env).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as Error).message).toMatch(
        /^getDelegationStatus: the delegation-status endpoint is rate limited and still answered 429 for "b\.example" within the rate-limit budget of 5s \(rateLimitBudgetSeconds\); raise rateLimitBudgetSeconds .* GET \/dns\/v2\/analyze\/b\.example\/delegation-status failed \(429 RateLimitError\)/,
      );
      expect((err as Error).message).not.toContain(clocked.apiKey);
      expect(waits).toEqual([]);
      // Not cached: with room in the window the same lookup succeeds.
      now += 10_000;
      expect((await runLookup(getDelegationStatusLookup, { domain: "b.example", rateLimitBudgetSeconds: 5 }, env)).domain).toBe("b.example");
    });

    it("with a budget of 0 fails at the first 429", async () => {
      const env = envFor(clocked, clock);
      await runLookup(getDelegationStatusLookup, { domain: "example.com" }, env);
      await expect(runLookup(getDelegationStatusLookup, { domain: "c.example", rateLimitBudgetSeconds: 0 }, env)).rejects.toThrow(/budget of 0s/);
      expect(requestsTo(clocked, "/dns/v2/analyze/c.example")).toHaveLength(1);
    });
  });
});

describe("getCurrentClient", () => {
  it("returns the seed client and never the key", async () => {
    const c = await runLookup(getCurrentClientLookup, {}, envFor(sim));
    expect(c).toMatchObject({ id: 7350925, email: "platform@example.com", status: "active", companyName: "Example Co", currentUser: 1023101 });
    expect(JSON.stringify(c)).not.toContain(sim.apiKey);
  });
});

describe("getTask / getTasks", () => {
  it("reads a task by id and lists tasks by project, state and type across pages", async () => {
    const ids = [
      await adminTask({ task_type: "create_vm", project_id: 1, region_id: 76 }),
      await adminTask({ task_type: "create_vm", project_id: 1, region_id: 76 }),
      await adminTask({ task_type: "delete_vm", project_id: 1, region_id: 76 }),
      await adminTask({ task_type: "create_vm", project_id: 2, region_id: 76 }),
    ];
    const env = envFor(sim);
    const t = await runLookup(getTaskLookup, { taskId: ids[0] as string }, env);
    expect(t).toMatchObject({ id: ids[0], taskType: "create_vm", projectId: 1, regionId: 76 });
    const p1 = await runLookup(getTasksLookup, { projectId: 1, pageSize: 2 }, env);
    expect([...p1.ids].sort()).toEqual(ids.slice(0, 3).sort());
    expect(requestsTo(sim, "/cloud/v1/tasks").filter((r) => r.path === "/cloud/v1/tasks").length).toBe(2);
    const vms = await runLookup(getTasksLookup, { taskType: "create_vm" }, env);
    expect([...vms.ids].sort()).toEqual([ids[0], ids[1], ids[3]].sort());
    const twoVms = await runLookup(getTasksLookup, { taskType: "create_vm", maxResults: 2 }, env);
    expect(twoVms.ids).toHaveLength(2);
    expect(twoVms.ids.every((id) => vms.ids.includes(id))).toBe(true);
  });

  it("filters by state: finished and new tasks each see only their own", async () => {
    const ids = [
      await adminTask({ task_type: "create_vm", project_id: 1, region_id: 76 }),
      await adminTask({ task_type: "create_vm", project_id: 1, region_id: 76 }),
      await adminTask({ task_type: "delete_vm", project_id: 1, region_id: 76 }),
    ];
    await finishTask(ids[0] as string);
    await finishTask(ids[2] as string);
    const env = envFor(sim);
    const finished = await runLookup(getTasksLookup, { state: "FINISHED" }, env);
    expect([...finished.ids].sort()).toEqual([ids[0], ids[2]].sort());
    expect(finished.tasks.map((x) => x.state)).toEqual(["FINISHED", "FINISHED"]);
    const fresh = await runLookup(getTasksLookup, { state: "NEW" }, env);
    expect(fresh.ids).toEqual([ids[1]]);
  });

  it("getTask of an unknown id is a NotFound error naming the lookup", async () => {
    await expect(runLookup(getTaskLookup, { taskId: "00000000-0000-0000-0000-000000000000" }, envFor(sim))).rejects.toThrow(/^getTask: .*404/);
  });
});

describe("getK8sClusters", () => {
  const seededIn = (projectId: number, regionId: number) =>
    (seed().clusters as { id: string; name: string; version: string; status: string; project_id: number; region_id: number }[]).filter(
      (c) => c.project_id === projectId && c.region_id === regionId,
    );

  it("lists every cluster of project 1 in region 76 across pages, with id, name, version, status and busy task", async () => {
    const want = seededIn(1, 76);
    expect(want.length).toBeGreaterThan(2);
    const r = await runLookup(getK8sClustersLookup, { projectId: 1, regionId: 76, pageSize: 2 }, envFor(sim));
    expect(r.clusters).toEqual(want.map((c) => ({ id: c.id, name: c.name, version: c.version, status: c.status, taskId: null })));
    expect(r.names).toEqual(want.map((c) => c.name));
    expect(r).toMatchObject({ projectId: 1, regionId: 76 });
    const pages = requestsTo(sim, "/cloud/v2/k8s/clusters/1/76");
    expect(pages.map((p) => p.query["offset"])).toEqual(Array.from({ length: Math.ceil(want.length / 2) }, (_, i) => String(i * 2)));
    expect(pages.every((p) => p.query["limit"] === "2")).toBe(true);
  });

  it("keeps only the clusters whose name contains the filter (case-insensitive), and caps with maxResults", async () => {
    const env = envFor(sim);
    const all = seededIn(1, 76).map((c) => c.name);
    const matching = all.filter((n) => n.includes("prod"));
    expect(matching.length).toBeGreaterThan(0);
    expect(matching.length).toBeLessThan(all.length); // the seed has rows on both sides of the filter
    expect((await runLookup(getK8sClustersLookup, { projectId: 1, regionId: 76, name: "PROD" }, env)).names).toEqual(matching);
    // With a filter, the cap applies to matching clusters, not to the pages read.
    const capped = await runLookup(getK8sClustersLookup, { projectId: 1, regionId: 76, name: "-cluster", pageSize: 1, maxResults: 2 }, env);
    expect(capped.names).toEqual(all.filter((n) => n.includes("-cluster")).slice(0, 2));
    expect((await runLookup(getK8sClustersLookup, { projectId: 1, regionId: 76, name: "no-such" }, env)).clusters).toEqual([]);
    expect((await runLookup(getK8sClustersLookup, { projectId: 3, regionId: 76 }, env)).clusters).toEqual([]);
  });

  it("shows the task of a cluster that is being upgraded", async () => {
    const res = await fetch(`${sim.url}/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade`, {
      method: "POST",
      headers: { authorization: `apikey ${sim.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ version: "v1.31.2" }),
    });
    expect(res.status).toBe(200);
    const taskId = ((await res.json()) as { tasks: string[] }).tasks[0];
    const r = await runLookup(getK8sClustersLookup, { projectId: 1, regionId: 76 }, envFor(sim));
    const busy = r.clusters.filter((c) => c.taskId !== null);
    expect(busy).toEqual([expect.objectContaining({ name: "prod-cluster", taskId })]);
  });
});

describe("getK8sCluster / getK8sUpgradeVersions", () => {
  it("reads prod-cluster and its permitted next version", async () => {
    const env = envFor(sim);
    const ref = { projectId: 1, regionId: 76, clusterName: "prod-cluster" };
    expect(await runLookup(getK8sClusterLookup, ref, env)).toMatchObject({ projectId: 1, regionId: 76, name: "prod-cluster", version: "v1.30.4", status: "Provisioned", taskId: null });
    expect(await runLookup(getK8sUpgradeVersionsLookup, ref, env)).toEqual({ ...ref, versions: ["v1.31.2"] });
    expect((await runLookup(getK8sUpgradeVersionsLookup, { ...ref, clusterName: "edge-cluster" }, env)).versions).toEqual([]);
  });
});

describe("getStreamingAiTasks", () => {
  it("pages through all 27 tasks and applies filters", async () => {
    const env = envFor(sim);
    const all = await runLookup(getStreamingAiTasksLookup, { pageSize: 10 }, env);
    const seeded = seed().aiTasks as { task_id: string; status: string; task_name: string }[];
    expect([...all.ids].sort()).toEqual(seeded.map((t) => t.task_id).sort());
    // Pages of at most 10, each after the first starting 3 items early: page number and size
    // are chosen so the page starts there (provider/api/pageAnchors.ts numberedWindow).
    expect(requestsTo(sim, "/streaming/ai/tasks").map((r) => [r.query["page"], r.query["limit"]])).toEqual([
      ["1", "10"],
      ["2", "7"],
      ["2", "10"],
      ["3", "8"],
      ["3", "10"],
    ]);
    const success = await runLookup(getStreamingAiTasksLookup, { status: "SUCCESS", taskName: "transcription" }, env);
    expect([...success.ids].sort()).toEqual(seeded.filter((t) => t.status === "SUCCESS" && t.task_name === "transcription").map((t) => t.task_id).sort());
    const capped = await runLookup(getStreamingAiTasksLookup, { ordering: "task_id", pageSize: 5, maxResults: 7 }, env);
    expect(capped.ids).toEqual(seeded.map((t) => t.task_id).sort().slice(0, 7));
  });
});

/** The seed's delegation record in the client's camelCase. */
function camel(w: any) {
  return {
    authoritativeNameServers: w.authoritative_name_servers,
    serviceAuthorizedCount: w.service_authorized_count,
    nonServiceAuthorizedCount: w.non_service_authorized_count,
    isWhitelabelDelegation: w.is_whitelabel_delegation,
    zoneExists: w.zone_exists,
  };
}
