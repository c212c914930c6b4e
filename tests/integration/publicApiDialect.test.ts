/**
 * The real platform's variety, end to end: one simulator in its "public API" dialect
 * (`startSimulator({ dialect: "public-api" })`), whose answers take every shape the public
 * material documents (optional fields omitted, empty lists as null, older instance field names,
 * JSON labelled text/plain on the DNS endpoint, a server-side page cap of 10, regions without
 * `count`, null event kinds and listed events without `client_id`, PUT/DELETE of an event
 * answering 200 `{}`, an extra cluster still Provisioning without a version, unknown fields and
 * enum values, AI tasks in the current SDK's shape), and against it:
 *
 * 1. the TypeScript quickstart (a real program, as examples.test.ts runs it): up, a no-change
 *    preview --refresh, a refresh that finds nothing, destroy;
 * 2. the Python program on the generated SDK (the plugin path, as pythonProgram.test.ts runs it),
 *    started at once and run beside 1 and 4 (it uses prod-cluster and storage "media" only);
 * 3. both resources on both paths in one stack (dynamic: the SDK's classes; plugin: the schema
 *    tokens with the plugin on PATH): create, update in place, replace, refresh after an
 *    out-of-band change, `pulumi import` on the plugin path, destroy; a StorageEvent with a
 *    `clientId` on each path through all of it (its identity is not changed: under this dialect
 *    the list cannot tell events apart by client); a no-change preview after every up;
 * 4. the lookups whose answers the dialect varies, through the SDK and through the plugin;
 * 5. the API key in no exported state.
 *
 * Needs `make build` (the providers run dist/) and `make test-assets` (Node 24, the venv).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import type { Stack } from "@pulumi/pulumi/automation";
import { FUNCTIONS, TOKEN_PREFIX } from "../../provider/plugin/functions";
import {
  getCurrentClient,
  getDelegationStatus,
  getInstances,
  getK8sClusters,
  getRegions,
  getStreamingAiTasks,
  K8sClusterUpgrade,
  StorageEvent,
  type K8sClusterUpgradeArgs,
  type StorageEventArgs,
} from "../../sdk/nodejs";
import { startSimulator, type RequestLogEntry, type RunningSimulator } from "../../simulator";
import { admin, newKey } from "../unit/api/helpers";
import { createExampleStack } from "./exampleStack";
import { createTestStack, REPO_ROOT, runPulumi, suiteProcessEnv, TEST_PASSPHRASE, type TestStack } from "./harness";
import { pluginPathDir, runLanguageProgram, stepOf, type ProgramRun } from "./pluginSupport";
import { keyLeaksInState, withoutSecretValues } from "./stateSecrets";

jest.setTimeout(900_000);

const SE = "cloudplatform:index:StorageEvent";
const K8S = "cloudplatform:index:K8sClusterUpgrade";
const EVENT = "/storage/notifications/v1/event";
const opts = { color: "never" as const };
const SEED_CLUSTERS = ["prod-cluster", "demo-cluster", "legacy-cluster", "edge-cluster"];
/** The cluster the dialect adds to project 1 / region 76: still Provisioning, no version yet. */
const PROVISIONING = "provisioning-cluster";
/** Seeded regions plus the two the dialect adds (a NEW one and a DELETION_FAILED one). */
const ALL_REGION_IDS = [8, 38, 76, 100, 116, 9001, 9002];

let sim: RunningSimulator;
let pathDir: string;
/** PATH of a stack whose program uses the plugin: the plugin first, then the suite's Node 24. */
let pluginPath: string;

/**
 * The Python program's run, started as soon as the simulator is up: it runs beside the
 * quickstart and the lookups (it drives prod-cluster and storage "media", which they leave
 * alone), so the file takes the longest of them rather than their sum.
 */
let pythonRun: Promise<ProgramRun> | undefined;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 60, dialect: "public-api" });
  pathDir = pluginPathDir();
  pluginPath = `${pathDir}${path.delimiter}${suiteProcessEnv().PATH}`;
  const venv = execFileSync("bash", [path.join(REPO_ROOT, "scripts/python-env.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  pythonRun = runLanguageProgram(path.join(venv, "bin", "python"), [path.join(REPO_ROOT, "tests/integration/programs/python-plugin/inline_program.py")], sim, TEST_PASSPHRASE);
});
afterAll(async () => {
  await pythonRun; // never rejects; it must not outlive the simulator
  await sim?.close();
  if (pathDir) fs.rmSync(pathDir, { recursive: true, force: true });
});

function connection() {
  return { "cloudplatform:baseUrl": { value: sim.url }, "cloudplatform:apiKey": { value: sim.apiKey, secret: true } };
}

/** Only the counts of a change summary that are changes (not `same`). */
function changesOf(summary: Record<string, number | undefined> | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(summary ?? {}).filter(([k, v]) => k !== "same" && (v ?? 0) > 0)) as Record<string, number>;
}

const liveCluster = (name: string, projectId = 1) => sim.state().clusters.find((c) => c.name === name && c.project_id === projectId);
const liveEvents = (storageOrBucket: string) =>
  sim.state().storageEvents.filter((e) => e.storage_name === storageOrBucket || e.bucket_name === storageOrBucket) as Array<Record<string, any>>;

/** Requests since the last `mark()`. */
let markSeq = 0;
function mark(): void {
  markSeq = sim.requests().at(-1)?.seq ?? 0;
}
function since(): RequestLogEntry[] {
  return sim.requests().filter((r) => r.seq > markSeq);
}
/** The writes since the last `mark()`, as sorted `METHOD path` lines. */
function writesSince(): string[] {
  return since()
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path}`)
    .sort();
}
/** The quota check each planned upgrade asks at its check (a POST that changes nothing). */
const QUOTA_CHECK = "POST /cloud/v2/k8s/clusters/1/76/pools/check_limits";

/** The writes since the last `mark()` are `expected`, in any order. */
function expectWrites(expected: string[]): void {
  expect(writesSince()).toEqual([...expected].sort());
}

test("the simulator answers in the public-API dialect", async () => {
  // A guard that the rest of the file tests what it says: the instance list is cut at 10 items
  // although 1000 were asked for, and every other item carries the older field names.
  const headers = { Authorization: `apikey ${sim.apiKey}` };
  const res = await fetch(`${sim.url}/cloud/v1/instances/1/76?limit=1000`, { headers });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { results: Array<Record<string, unknown>> };
  expect(body.results).toHaveLength(10);
  expect(body.results[1]).toHaveProperty("instance_name");
  expect(body.results[1]).not.toHaveProperty("name");
  const dns = await fetch(`${sim.url}/dns/v2/analyze/not-delegated.example/delegation-status`, { headers });
  expect(dns.headers.get("content-type")).toMatch(/^text\/plain/);
});

describe("the TypeScript quickstart", () => {
  test("up, a no-change preview --refresh and refresh, outputs as promised, destroy; no key in state", async () => {
    const t = await createExampleStack("quickstart", { config: connection() });
    try {
      const up = await t.stack.up(opts);
      expect(up.summary.result).toBe("succeeded");
      const out = (k: string) => up.outputs[k]?.value;
      expect(out("projectName")).toBe("default");
      expect(out("regionDisplayName")).toBe("Luxembourg-2");
      expect([...(out("clusterNames") as string[])].sort()).toEqual([...SEED_CLUSTERS, PROVISIONING].sort());
      expect(out("clusterRunning")).toBe("v1.31.2");
      expect(out("clusterPreviousVersion")).toBe("v1.30.4");
      expect(out("clusterStatus")).toBe("Provisioned");
      expect(liveCluster("demo-cluster")?.version).toBe("v1.31.2");
      const events = liveEvents("demo-storage");
      expect(events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ uuid: out("storageSpaceEvent"), name: "reaching_used_space", bytes: 500 * 1024 ** 3 }),
          expect.objectContaining({ uuid: out("bucketRequestsEvent"), name: "reaching_used_requests", bucket_name: "demo-bucket", count: 1_000_000 }),
        ]),
      );
      expect(events).toHaveLength(2);

      const preview = await t.stack.preview({ ...opts, refresh: true, diff: true });
      expect(changesOf(preview.changeSummary)).toEqual({});
      const refresh = await t.stack.refresh(opts);
      expect(changesOf(refresh.summary.resourceChanges)).toEqual({});
      expect(await keyLeaksInState(t.stack, t.backendUrl, sim.apiKey)).toEqual([]);

      const destroy = await t.stack.destroy(opts);
      expect(destroy.summary.result).toBe("succeeded");
      expect(liveEvents("demo-storage")).toEqual([]);
      expect(liveCluster("demo-cluster")?.version).toBe("v1.31.2");
    } finally {
      await t.cleanup();
    }
  });
});

describe("lookups over the dialect's answers", () => {
  /** What the program's lookups returned, captured by the inline program (it runs in this process). */
  let sdk: Record<string, any> = {};
  let plugin: Record<string, any> = {};
  let t: TestStack | undefined;

  beforeAll(async () => {
    const invoke = (fn: string, args: Record<string, unknown>) => pulumi.runtime.invoke(`cloudplatform:index:${fn}`, args);
    t = await createTestStack({
      projectName: "dialect-lookups",
      config: connection(),
      envVars: { PATH: pluginPath },
      program: async () => {
        const [instances, regions, clusters, delegated, notDelegated, aiTasks, me] = await Promise.all([
          getInstances({ projectId: 1, regionId: 76 }),
          getRegions({ includeInactive: true }),
          getK8sClusters({ projectId: 1, regionId: 76 }),
          getDelegationStatus({ domain: "example.com" }),
          getDelegationStatus({ domain: "not-delegated.example" }),
          getStreamingAiTasks({}),
          getCurrentClient(),
        ]);
        sdk = { instances, regions, clusters, delegated, notDelegated, aiTasks, me };
        const [pInstances, pRegions, pClusters, pDelegated, pNotDelegated, pAiTasks, pMe] = await Promise.all([
          invoke("getInstances", { projectId: 1, regionId: 76 }),
          invoke("getRegions", { includeInactive: true }),
          invoke("getK8sClusters", { projectId: 1, regionId: 76 }),
          invoke("getDelegationStatus", { domain: "example.com" }),
          invoke("getDelegationStatus", { domain: "not-delegated.example" }),
          invoke("getStreamingAiTasks", {}),
          invoke("getCurrentClient", {}),
        ]);
        plugin = { instances: pInstances, regions: pRegions, clusters: pClusters, delegated: pDelegated, notDelegated: pNotDelegated, aiTasks: pAiTasks, me: pMe };
        return {};
      },
    });
    mark();
    const preview = await t.stack.preview(opts);
    expect(changesOf(preview.changeSummary)).toEqual({ create: 1 });
  });
  afterAll(() => {
    t?.discard(); // only previewed: nothing to destroy
  });

  const both = (): Array<[string, Record<string, any>]> => [
    ["sdk", sdk],
    ["plugin", plugin],
  ];
  const seedAiTasks = () => (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "simulator/seed/default.json"), "utf8")) as { aiTasks: Array<{ task_id: string; task_name: string }> }).aiTasks;

  test("getInstances pages past the server's cap of 10 to all 25, named from the older field names", () => {
    const names = Array.from({ length: 25 }, (_, i) => `web-${String(i + 1).padStart(2, "0")}`);
    for (const [, r] of both()) {
      expect(r.instances.instances.map((i: { name: string }) => i.name)).toEqual(names);
      expect(new Set(r.instances.ids).size).toBe(25);
    }
    const pages = since().filter((r) => r.path === "/cloud/v1/instances/1/76" && r.status === 200);
    expect(pages.length).toBeGreaterThanOrEqual(3);
  });

  test("getRegions returns every region though the page has no count", () => {
    for (const [, r] of both()) expect([...r.regions.ids].sort((a: number, b: number) => a - b)).toEqual(ALL_REGION_IDS);
  });

  test("getK8sClusters lists the cluster still Provisioning, with no version, beside the seeded ones", () => {
    for (const [, r] of both()) {
      expect([...r.clusters.names].sort()).toEqual([...SEED_CLUSTERS, PROVISIONING].sort());
      const provisioning = (r.clusters.clusters as Array<Record<string, unknown>>).filter((c) => c.status === "Provisioning");
      expect(provisioning.map((c) => c.name)).toEqual([PROVISIONING]);
      expect(provisioning[0]?.version ?? null).toBeNull();
      for (const c of r.clusters.clusters as Array<Record<string, unknown>>) if (c.name !== PROVISIONING) expect(c.version).toMatch(/^v\d+\.\d+\.\d+$/);
    }
  });

  test("getDelegationStatus reads a text/plain answer and a null IPv6 list", () => {
    const dns = since().filter((r) => r.path.startsWith("/dns/v2/analyze/") && r.status === 200);
    expect(dns.length).toBeGreaterThanOrEqual(2);
    for (const [, r] of both()) {
      expect(r.delegated.zoneExists).toBe(true);
      expect(r.delegated.authoritativeNameServers.map((s: { name: string }) => s.name)).toEqual(["ns1.service-dns.example", "ns2.service-dns.example"]);
      expect(r.notDelegated.zoneExists).toBe(false);
      expect(r.notDelegated.authoritativeNameServers.length).toBeGreaterThan(0);
      for (const s of [...r.delegated.authoritativeNameServers, ...r.notDelegated.authoritativeNameServers]) {
        expect(Array.isArray(s.ipv6Addresses ?? [])).toBe(true);
      }
      for (const s of r.notDelegated.authoritativeNameServers) expect(s.ipv6Addresses ?? []).toEqual([]);
    }
  });

  test("getStreamingAiTasks returns every task, each with its taskName", () => {
    const seeded = seedAiTasks();
    for (const [, r] of both()) {
      const tasks = r.aiTasks.tasks as Array<{ taskId: string; taskName: string }>;
      expect(tasks.map((x) => x.taskId).sort()).toEqual(seeded.map((x) => x.task_id).sort());
      const byId = new Map(seeded.map((x) => [x.task_id, x.task_name]));
      for (const x of tasks) expect(x.taskName).toBe(byId.get(x.taskId));
    }
  });

  test("getCurrentClient works", () => {
    for (const [, r] of both()) {
      expect(r.me.id).toBe(7350925);
      expect(r.me.email).toBe("platform@example.com");
    }
  });
});

describe("the Python program on the plugin", () => {
  let run: ProgramRun;
  const step = (name: string) => stepOf(run, name);

  beforeAll(async () => {
    run = await pythonRun!;
  });

  test("runs every lookup, upgrades, creates/updates/deletes two events, previews no change, destroys", () => {
    expect(run.failure).toBeUndefined();
    expect([...run.steps.keys()]).toEqual(["create", "update", "delete", "preview", "refresh", "state", "destroy"]);
    const all = [...FUNCTIONS.keys()].map((t) => t.slice(TOKEN_PREFIX.length)).sort();
    expect([...(step("update").outputs?.["lookups"] as string[])].sort()).toEqual(all);
    expect(step("create").changes).toEqual({ create: 4 });
    expect(step("create").outputs?.["clusterVersionSeen"]).toBe("v1.30.4");
    expect(step("create").outputs?.["upgradePath"]).toEqual(["v1.31.2"]);
    expect(step("update").changes).toEqual({ same: 2, update: 2 });
    expect(step("delete").changes).toEqual({ same: 2, delete: 2 });
    expect(step("preview").changes).toEqual({ same: 2 });
    expect(step("refresh").changes).toEqual({ same: 2 });
    expect(step("destroy").changes).toEqual({ delete: 2 });
    expect(liveCluster("prod-cluster")?.version).toBe("v1.31.2");
    expect(liveEvents("media")).toEqual([]);
  });

  test("no plain API key in its state, backend or output", () => {
    expect(JSON.stringify(withoutSecretValues(step("state").deployment))).not.toContain(sim.apiKey);
    expect(run.output).not.toContain(sim.apiKey);
    expect(run.backendLeaks).toEqual([]);
  });
});

/** A resource of the plugin by its schema token, as a generated SDK's class registers it. */
class PluginResource extends pulumi.CustomResource {
  constructor(token: string, name: string, props: pulumi.Inputs) {
    super(token, name, props);
  }
}

describe("both resources on both paths in one stack", () => {
  type Ev = StorageEventArgs & Record<string, unknown>;
  type Cl = K8sClusterUpgradeArgs & Record<string, unknown>;
  /** What the program declares; each test changes it. `imp*` are the plugin-path imports. */
  interface Declared {
    dynCluster: Cl;
    dynEvent: Ev;
    dynClient: Ev;
    plgCluster: Cl;
    plgEvent: Ev;
    plgClient: Ev;
    impEvent?: Ev;
    impCluster?: Cl;
  }
  let d: Declared;
  let t: TestStack;
  const stack = (): Stack => t.stack;

  /** The simulator's events in this stack's storages and buckets. */
  const live = () =>
    (sim.state().storageEvents as Array<Record<string, any>>).filter((e) => ["dyn-media", "dyn-media-2", "plg-media", "imported"].includes(e.storage_name ?? e.bucket_name));
  /** The stack's resources by name as of the last {@link snapshot}. */
  let recorded = new Map<string, Record<string, any>>();
  /**
   * Reads the stack's state once after an operation, for the helpers below: `stack export`
   * without `--show-secrets` (no passphrase key derivation; nothing read here is secret).
   */
  async function snapshot(): Promise<void> {
    const state = JSON.parse(await cli(["stack", "export"])) as { deployment?: { resources?: Array<Record<string, any>> } };
    recorded = new Map(
      (state.deployment?.resources ?? [])
        .filter((r) => r.type !== "pulumi:pulumi:Stack" && !String(r.type).startsWith("pulumi:providers:"))
        .map((r) => [String(r.urn).slice(String(r.urn).lastIndexOf("::") + 2), r]),
    );
  }
  /** The simulator's event the stack recorded (last snapshot) under `name`. */
  function recordedEvent(name: string): Record<string, any> | undefined {
    const id = recorded.get(name)?.id;
    return (sim.state().storageEvents as Array<Record<string, any>>).find((e) => e.uuid === id);
  }
  /** The outputs the stack recorded (last snapshot) for `name`. */
  function recordedOutputs(name: string): Record<string, any> {
    return (recorded.get(name)?.outputs ?? {}) as Record<string, any>;
  }
  /** After every up: a preview plans nothing. */
  async function expectNoChanges(total: number): Promise<void> {
    const preview = await stack().preview(opts);
    expect(preview.changeSummary).toEqual({ same: total });
  }
  async function cli(args: string[]): Promise<string> {
    const res = await runPulumi([...args, "--stack", "test", "--non-interactive", "--color", "never"], stack().workspace.workDir, t.envVars);
    if (res.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${res.code}):\n${res.stdout}\n${res.stderr}`);
    expect(res.stdout + res.stderr).not.toContain(sim.apiKey);
    return res.stdout;
  }

  beforeAll(async () => {
    await pythonRun; // it drives prod-cluster, which this describe uses next (also when run alone with -t)
    // The clusters' versions as this describe expects them, whatever ran before.
    for (const [name, version] of [
      ["prod-cluster", "v1.30.4"],
      ["demo-cluster", "v1.30.4"],
      ["legacy-cluster", "v1.28.12"],
      ["edge-cluster", "v1.32.1"],
    ]) {
      await admin(sim, "PATCH", `/clusters/1/76/${name}`, { version });
    }
    d = {
      dynCluster: { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2" },
      dynEvent: { name: "reaching_used_space", storageName: "dyn-media", bytes: 1000 },
      dynClient: { name: "reaching_used_requests", storageName: "dyn-media", count: 100, clientId: 42 },
      plgCluster: { projectId: 1, regionId: 76, clusterName: "demo-cluster", version: "v1.31.2" },
      plgEvent: { name: "reaching_used_space", storageName: "plg-media", bytes: 1000 },
      plgClient: { name: "reaching_files_quantity", storageName: "plg-media", bucketName: "photos", count: 10, clientId: 43 },
    };
    t = await createTestStack({
      projectName: "dialect-lifecycles",
      config: connection(),
      envVars: { PATH: pluginPath },
      program: async () => {
        new K8sClusterUpgrade("dyn-cluster", d.dynCluster);
        new StorageEvent("dyn-event", d.dynEvent);
        new StorageEvent("dyn-client", d.dynClient);
        new PluginResource(K8S, "plg-cluster", { ...d.plgCluster, status: undefined });
        new PluginResource(SE, "plg-event", { ...d.plgEvent, uuid: undefined });
        new PluginResource(SE, "plg-client", { ...d.plgClient, uuid: undefined });
        if (d.impEvent) new PluginResource(SE, "imp-event", { ...d.impEvent, uuid: undefined });
        if (d.impCluster) new PluginResource(K8S, "imp-cluster", { ...d.impCluster, status: undefined });
        return {};
      },
    });
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  test("create: both clusters upgraded one step, four events (two with a clientId); then no change on preview and refresh", async () => {
    mark();
    const up = await stack().up(opts);
    await snapshot();
    expect(up.summary.resourceChanges).toEqual({ create: 7 });
    expectWrites([
      QUOTA_CHECK,
      QUOTA_CHECK,
      "POST /cloud/v2/k8s/clusters/1/76/demo-cluster/upgrade",
      "POST /cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade",
      `POST ${EVENT}`,
      `POST ${EVENT}`,
      `POST ${EVENT}`,
      `POST ${EVENT}`,
    ]);
    expect(liveCluster("prod-cluster")?.version).toBe("v1.31.2");
    expect(liveCluster("demo-cluster")?.version).toBe("v1.31.2");
    expect(recordedEvent("dyn-event")).toMatchObject({ name: "reaching_used_space", storage_name: "dyn-media", bytes: 1000 });
    expect(recordedEvent("dyn-client")).toMatchObject({ name: "reaching_used_requests", storage_name: "dyn-media", count: 100, client_id: 42 });
    expect(recordedEvent("plg-event")).toMatchObject({ name: "reaching_used_space", storage_name: "plg-media", bytes: 1000 });
    expect(recordedEvent("plg-client")).toMatchObject({ name: "reaching_files_quantity", bucket_name: "photos", count: 10, client_id: 43 });
    expect(recordedOutputs("dyn-cluster")).toMatchObject({ version: "v1.31.2", previousVersion: "v1.30.4", status: "Provisioned" });
    expect(recordedOutputs("plg-cluster")).toMatchObject({ version: "v1.31.2", previousVersion: "v1.30.4", status: "Provisioned" });
    expect(recordedOutputs("dyn-client")).toMatchObject({ clientId: 42, count: 100 });
    expect(recordedOutputs("plg-client")).toMatchObject({ clientId: 43, count: 10 });

    mark();
    await expectNoChanges(7);
    const refresh = await stack().refresh(opts);
    await snapshot();
    expect(refresh.summary.resourceChanges).toEqual({ same: 7 });
    expect(recordedOutputs("dyn-client")).toMatchObject({ clientId: 42, count: 100 });
    expect(recordedOutputs("plg-client")).toMatchObject({ clientId: 43, count: 10 });
    expectWrites([]);
  });

  test("update: limits change in place (the clientId events too), clusters step a minor; then no change", async () => {
    d.dynEvent = { ...d.dynEvent, bytes: 1500 };
    d.dynClient = { ...d.dynClient, count: 200 };
    d.plgEvent = { ...d.plgEvent, bytes: 1500 };
    d.plgClient = { ...d.plgClient, count: 20 };
    d.dynCluster = { ...d.dynCluster, version: "v1.32.1" };
    d.plgCluster = { ...d.plgCluster, version: "v1.32.1" };
    const before = new Map(live().map((e) => [e.uuid, e]));
    mark();
    const up = await stack().up(opts);
    await snapshot();
    expect(up.summary.resourceChanges).toEqual({ same: 1, update: 6 });
    expectWrites([
      QUOTA_CHECK,
      QUOTA_CHECK,
      "POST /cloud/v2/k8s/clusters/1/76/demo-cluster/upgrade",
      "POST /cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade",
      `PUT ${EVENT}`,
      `PUT ${EVENT}`,
      `PUT ${EVENT}`,
      `PUT ${EVENT}`,
    ]);
    expect(since().filter((r) => r.method === "PUT").map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(recordedEvent("dyn-event")).toMatchObject({ bytes: 1500 });
    expect(recordedEvent("dyn-client")).toMatchObject({ count: 200, client_id: 42 });
    expect(recordedEvent("plg-event")).toMatchObject({ bytes: 1500 });
    expect(recordedEvent("plg-client")).toMatchObject({ count: 20, client_id: 43 });
    for (const name of ["dyn-event", "dyn-client", "plg-event", "plg-client"]) expect(before.has(recordedEvent(name)?.uuid)).toBe(true);
    expect(live()).toHaveLength(before.size);
    expect(liveCluster("prod-cluster")?.version).toBe("v1.32.1");
    expect(liveCluster("demo-cluster")?.version).toBe("v1.32.1");
    expect(recordedOutputs("dyn-cluster")).toMatchObject({ version: "v1.32.1", previousVersion: "v1.31.2" });
    expect(recordedOutputs("plg-cluster")).toMatchObject({ version: "v1.32.1", previousVersion: "v1.31.2" });
    await expectNoChanges(7);
  });

  test("replace: a changed identity (storage, bucket, cluster) replaces; the old clusters keep their version; then no change", async () => {
    const old = { dynEvent: recordedEvent("dyn-event")?.uuid, plgEvent: recordedEvent("plg-event")?.uuid };
    d.dynEvent = { ...d.dynEvent, storageName: "dyn-media-2" };
    d.plgEvent = { ...d.plgEvent, bucketName: "videos" };
    d.dynCluster = { ...d.dynCluster, clusterName: "legacy-cluster", version: "v1.29.8" };
    d.plgCluster = { ...d.plgCluster, clusterName: "edge-cluster", version: "v1.32.1" };
    mark();
    const up = await stack().up(opts);
    await snapshot();
    expect(up.summary.resourceChanges).toEqual({ same: 3, replace: 4 });
    expectWrites([
      `DELETE ${EVENT}`,
      `DELETE ${EVENT}`,
      `POST ${EVENT}`,
      `POST ${EVENT}`,
      // The engine checks a replacement twice (against the old inputs, then against none).
      QUOTA_CHECK,
      QUOTA_CHECK,
      "POST /cloud/v2/k8s/clusters/1/76/legacy-cluster/upgrade",
    ]);
    const uuids = live().map((e) => e.uuid);
    for (const u of Object.values(old)) expect(uuids).not.toContain(u);
    expect(recordedEvent("dyn-event")).toMatchObject({ storage_name: "dyn-media-2", bytes: 1500 });
    expect(recordedEvent("plg-event")).toMatchObject({ storage_name: "plg-media", bucket_name: "videos", bytes: 1500 });
    expect(recordedEvent("dyn-client")).toMatchObject({ count: 200, client_id: 42 });
    expect(live()).toHaveLength(4);
    expect(liveCluster("legacy-cluster")?.version).toBe("v1.29.8");
    expect(liveCluster("edge-cluster")?.version).toBe("v1.32.1");
    expect(liveCluster("prod-cluster")?.version).toBe("v1.32.1");
    expect(liveCluster("demo-cluster")?.version).toBe("v1.32.1");
    expect(recordedOutputs("dyn-cluster")).toMatchObject({ clusterName: "legacy-cluster", version: "v1.29.8" });
    expect(recordedOutputs("plg-cluster")).toMatchObject({ clusterName: "edge-cluster", version: "v1.32.1" });
    await expectNoChanges(7);
  });

  test("refresh after out-of-band changes (admin API) records them; up puts them back; then no change", async () => {
    for (const name of ["dyn-event", "plg-event"]) await admin(sim, "PATCH", `/events/${recordedEvent(name)?.uuid}`, { bytes: 7 });
    await admin(sim, "PATCH", `/events/${recordedEvent("plg-client")?.uuid}`, { count: 3 });
    await admin(sim, "PATCH", "/clusters/1/76/legacy-cluster", { version: "v1.28.12" });
    await admin(sim, "PATCH", "/clusters/1/76/edge-cluster", { version: "v1.31.2" });

    mark();
    const refresh = await stack().refresh(opts);
    await snapshot();
    expect(refresh.summary.resourceChanges).toEqual({ same: 2, update: 5 });
    expect(recordedOutputs("dyn-event")).toMatchObject({ bytes: 7 });
    expect(recordedOutputs("plg-event")).toMatchObject({ bytes: 7 });
    expect(recordedOutputs("plg-client")).toMatchObject({ count: 3, clientId: 43 });
    expect(recordedOutputs("dyn-client")).toMatchObject({ count: 200, clientId: 42 });
    expect(recordedOutputs("dyn-cluster")).toMatchObject({ version: "v1.28.12" });
    expect(recordedOutputs("plg-cluster")).toMatchObject({ version: "v1.31.2" });
    expectWrites([]);

    const up = await stack().up(opts);
    await snapshot();
    expect(up.summary.resourceChanges).toEqual({ same: 2, update: 5 });
    expectWrites([
      QUOTA_CHECK,
      QUOTA_CHECK,
      "POST /cloud/v2/k8s/clusters/1/76/edge-cluster/upgrade",
      "POST /cloud/v2/k8s/clusters/1/76/legacy-cluster/upgrade",
      `PUT ${EVENT}`,
      `PUT ${EVENT}`,
      `PUT ${EVENT}`,
    ]);
    expect(recordedEvent("dyn-event")).toMatchObject({ bytes: 1500 });
    expect(recordedEvent("plg-event")).toMatchObject({ bytes: 1500 });
    expect(recordedEvent("plg-client")).toMatchObject({ count: 20, client_id: 43 });
    expect(liveCluster("legacy-cluster")?.version).toBe("v1.29.8");
    expect(liveCluster("edge-cluster")?.version).toBe("v1.32.1");
    await expectNoChanges(7);
  });

  test("`pulumi import` on the plugin path: an event made through the API and a cluster, no write; declared, no change", async () => {
    const made = await fetch(`${sim.url}${EVENT}`, {
      method: "POST",
      headers: { Authorization: `apikey ${sim.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "reaching_used_traffic", bucket_name: "imported", bytes: 4096 }),
    });
    expect(made.status).toBe(200);
    const uuid = String(liveEvents("imported")[0]?.uuid);
    mark();
    await cli(["import", SE, "imp-event", uuid, "--yes", "--generate-code=false", "--protect=false"]);
    await cli(["import", K8S, "imp-cluster", "2/76/staging-cluster", "--yes", "--generate-code=false", "--protect=false"]);
    expectWrites([]);
    await snapshot();
    const state = recorded;
    expect(state.get("imp-event")).toMatchObject({ id: uuid, type: SE, inputs: { name: "reaching_used_traffic", bucketName: "imported", bytes: 4096 } });
    expect(state.get("imp-cluster")).toMatchObject({ id: "2/76/staging-cluster", type: K8S, inputs: { version: "v1.29.8" } });
    expect(state.get("dyn-event")?.id).toBeDefined(); // the stack's other resources are kept

    d.impEvent = { name: "reaching_used_traffic", bucketName: "imported", bytes: 4096 };
    d.impCluster = { projectId: 2, regionId: 76, clusterName: "staging-cluster", version: "v1.29.8" };
    await expectNoChanges(9);
    expectWrites([]);
  });

  test("no API key in the exported state; destroy deletes every event the stack owns and no cluster", async () => {
    expect(await keyLeaksInState(stack(), t.backendUrl, sim.apiKey)).toEqual([]);
    mark();
    const destroy = await stack().destroy(opts);
    expect(destroy.summary.resourceChanges).toEqual({ delete: 9 });
    expectWrites(Array.from({ length: 5 }, () => `DELETE ${EVENT}`));
    for (const where of ["dyn-media", "dyn-media-2", "plg-media", "imported"]) expect(liveEvents(where)).toEqual([]);
    expect(liveCluster("legacy-cluster")?.version).toBe("v1.29.8");
    expect(liveCluster("edge-cluster")?.version).toBe("v1.32.1");
    expect(liveCluster("staging-cluster", 2)?.version).toBe("v1.29.8");
  });
});
