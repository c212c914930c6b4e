/**
 * Malformed answers through the real CLI (Automation API) against a simulator started for each
 * test file that runs this suite: on the dynamic path (the TypeScript SDK's classes,
 * malformedAnswersDynamic.test.ts) and on the plugin path (the schema tokens, the
 * `cloudplatform` plugin on PATH, malformedAnswersPlugin.test.ts), one file each so that jest
 * runs the two side by side: the event list, the cluster read and the task
 * read are spoilt (`POST /__admin/malformed`: HTML pages, JSON cut short, `{"weird":1}`, nulls,
 * an empty body, a huge body) during `refresh`, `preview --refresh`, `up` (create, update,
 * replace, delete) and `destroy`. Each time: the operation fails with a clear error or
 * recovers, the state keeps every resource, the request log shows no write acted on twice, and
 * a clean `up` afterwards converges (a no-change preview) with no manual step.
 *
 * Needs `npx tsc -p tsconfig.json` first (the providers run dist/).
 */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import type { Stack } from "@pulumi/pulumi/automation";
import { K8sClusterUpgrade, StorageEvent } from "../../sdk/nodejs";
import { startSimulator, type RequestLogEntry, type RunningSimulator } from "../../simulator";
import { admin, newKey } from "../unit/api/helpers";
import { createTestStack, resourcesByName, type TestStack } from "./harness";
import { pluginPathDir } from "./pluginSupport";

const EVENTS = "/storage/notifications/v1/events";
const EVENT = "/storage/notifications/v1/event";
const CLUSTER_PATH = "/cloud/v2/k8s/clusters/1/76/demo-cluster";
const UPGRADE = `${CLUSTER_PATH}/upgrade`;
const TASKS = "/cloud/v1/tasks/";
const SE = "cloudplatform:index:StorageEvent";
const K8S = "cloudplatform:index:K8sClusterUpgrade";
const opts = { color: "never" as const };

/** Which path a run of the suite drives. */
export type Kind = "dynamic" | "plugin";

/** What the program declares; tests change it between runs. */
interface Declared {
  clusterVersion: string;
  events: Record<string, Record<string, unknown>>;
}

/** A resource of the plugin by its schema token, as a generated SDK's class registers it. */
class PluginResource extends pulumi.CustomResource {
  constructor(token: string, name: string, props: pulumi.Inputs) {
    super(token, name, props);
  }
}

let sim: RunningSimulator;
let pathDir: string;

/** One stack of one path, with what it declares and helpers over the simulator's log. */
class Scenario {
  declared: Declared = {
    clusterVersion: "v1.30.4",
    events: {
      space: { name: "reaching_used_space", storageName: "media", bytes: 1000 },
      files: { name: "reaching_files_quantity", storageName: "media", bucketName: "photos", count: 10 },
    },
  };
  t!: TestStack;
  private mark = 0;

  /** `storage` names the storage of this scenario's events, so two scenarios never declare the same event. */
  constructor(
    readonly kind: Kind,
    storage = "media",
  ) {
    for (const args of Object.values(this.declared.events)) args.storageName = storage;
  }

  async start(): Promise<void> {
    this.t = await createTestStack({
      projectName: `malformed-${this.kind}`,
      program: async () => {
        const d = this.declared;
        const cluster = { projectId: 1, regionId: 76, clusterName: "demo-cluster", version: d.clusterVersion };
        const out: Record<string, pulumi.Output<unknown>> = {};
        if (this.kind === "dynamic") {
          out.cluster = new K8sClusterUpgrade("cluster", cluster).version;
          for (const [name, args] of Object.entries(d.events)) out[name] = new StorageEvent(name, args as never).uuid;
        } else {
          out.cluster = new PluginResource(K8S, "cluster", { ...cluster, status: undefined }).urn;
          for (const [name, args] of Object.entries(d.events)) out[name] = new PluginResource(SE, name, { ...args, uuid: undefined }).urn;
        }
        return out;
      },
      config: { "cloudplatform:baseUrl": { value: sim.url }, "cloudplatform:apiKey": { value: sim.apiKey, secret: true } },
      ...(this.kind === "plugin" ? { envVars: { PATH: `${pathDir}${path.delimiter}${process.env.PATH ?? ""}` } } : {}),
    });
  }

  get stack(): Stack {
    return this.t.stack;
  }

  /** Starts a new section of the request log. */
  markLog(): void {
    this.mark = sim.requests().at(-1)?.seq ?? 0;
  }

  /** Requests since {@link markLog}. */
  log(): RequestLogEntry[] {
    return sim.requests().filter((r) => r.seq > this.mark);
  }

  /** Writes since {@link markLog} that the server acted on (a 2xx, also under a spoilt answer). */
  handled(method: string, p: string): RequestLogEntry[] {
    return this.log().filter((r) => r.method === method && r.path === p && r.status >= 200 && r.status < 300);
  }

  /** Names of the resources the stack's state holds. */
  async stateNames(): Promise<string[]> {
    return [...(await resourcesByName(this.stack)).keys()].sort();
  }

  /** The resources the program declares. */
  declaredNames(): string[] {
    return ["cluster", ...Object.keys(this.declared.events)].sort();
  }

  /** Runs `op`, which must fail; returns its message. The spoilt answers are cleared afterwards. */
  async fails(op: () => Promise<unknown>): Promise<string> {
    try {
      await op();
    } catch (err) {
      return String((err as Error).message);
    } finally {
      await admin(sim, "DELETE", "/malformed");
    }
    throw new Error("expected the operation to fail under malformed answers, but it succeeded");
  }

  /** A clean `up` converges, then a preview plans nothing; returns the up's changes. */
  async converges(): Promise<Record<string, number>> {
    const up = await this.stack.up(opts);
    expect(up.summary.result).toBe("succeeded");
    const preview = await this.stack.preview(opts);
    expect(changesOf(preview.changeSummary)).toEqual({});
    return changesOf(up.summary.resourceChanges);
  }

  /** The simulator's events by the identity the program declares. */
  liveEvent(name: string): Record<string, unknown> | undefined {
    const want = this.declared.events[name] ?? {};
    return sim.state().storageEvents.find(
      (e) => e.name === want.name && (e.storage_name ?? undefined) === want.storageName && (e.bucket_name ?? undefined) === want.bucketName,
    ) as Record<string, unknown> | undefined;
  }
}

function changesOf(summary: Record<string, number | undefined> | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(summary ?? {}).filter(([k, v]) => k !== "same" && (v ?? 0) > 0)) as Record<string, number>;
}

const spoil = (rule: Record<string, unknown>) => admin(sim, "POST", "/malformed", rule);

/** A malformed-answer error names the call and says the answer was unexpected (never "not found"). */
function expectClearError(message: string, call: RegExp): void {
  expect(message).toMatch(call);
  expect(message).toMatch(/unexpected body|Cannot tell whether|may have taken effect/);
  expect(message).not.toContain(sim.apiKey);
}

/**
 * Registers the suite for one path: its simulator (at 60x), one scenario's stack brought up
 * once, then each malformed answer against it. The update, replace and delete cases run on the
 * dynamic path only.
 */
export function malformedAnswerSuite(kind: Kind): void {
  jest.setTimeout(1_200_000);
  beforeAll(async () => {
    sim = await startSimulator({ apiKey: newKey(), timeScale: 60 });
    pathDir = pluginPathDir();
  });
  afterAll(async () => {
    await sim?.close();
  });
  describe(`${kind} path`, () => suiteCases(kind));
}

function suiteCases(kind: Kind): void {
  const s = new Scenario(kind);
  beforeAll(async () => {
    await admin(sim, "POST", "/reset");
    await s.start();
    const up = await s.stack.up(opts);
    expect(up.summary.result).toBe("succeeded");
  });
  afterAll(() => {
    s.t?.discard(); // the simulator closes next
  });

  test("refresh with the event list as a 200 HTML page: fails clearly, keeps every resource, writes nothing", async () => {
    s.markLog();
    await spoil({ mode: "html200", path: EVENTS, method: "GET" });
    const message = await s.fails(() => s.stack.refresh(opts));
    expectClearError(message, /GET \/storage\/notifications\/v1\/events/);
    expect(await s.stateNames()).toEqual(s.declaredNames());
    expect(s.log().filter((r) => r.method !== "GET")).toEqual([]);
    expect(sim.state().storageEvents).toHaveLength(2);
    expect(changesOf((await s.stack.refresh(opts)).summary.resourceChanges)).toEqual({});
  });

  test("refresh with the event list cut in half, then as nulls: the same", async () => {
    for (const mode of ["truncated", "nulls"]) {
      await spoil({ mode, path: EVENTS, method: "GET" });
      const message = await s.fails(() => s.stack.refresh(opts));
      expectClearError(message, /storage/);
      expect(await s.stateNames()).toEqual(s.declaredNames());
    }
    expect(await s.converges()).toEqual({});
  });

  test("preview --refresh with the cluster read as {\"weird\":1}: fails clearly, plans nothing, keeps the state", async () => {
    s.markLog();
    await spoil({ mode: "wrongShape", path: CLUSTER_PATH, method: "GET" });
    const message = await s.fails(() => s.stack.preview({ ...opts, refresh: true }));
    expectClearError(message, /demo-cluster/);
    expect(await s.stateNames()).toEqual(s.declaredNames());
    expect(s.log().filter((r) => r.method !== "GET")).toEqual([]);
  });

  test("destroy with DELETE answered by an HTML page and the event list empty-bodied: no event lost from the state; a clean destroy finishes", async () => {
    const fresh = new Scenario(kind, "media-destroy");
    await fresh.start();
    try {
      await fresh.converges();
      fresh.markLog();
      await spoil({ mode: "html200", path: EVENT, method: "DELETE" });
      await spoil({ mode: "emptyBody", path: EVENTS, method: "GET" });
      const message = await fresh.fails(() => fresh.stack.destroy(opts));
      expectClearError(message, /storage/);
      const kept = await fresh.stateNames();
      expect(kept).toEqual(expect.arrayContaining(["files", "space"]));
      expect(fresh.handled("DELETE", EVENT)).toHaveLength(2);
      const destroy = await fresh.stack.destroy(opts);
      expect(destroy.summary.result).toBe("succeeded");
      expect(await fresh.stateNames()).toEqual([]);
      expect(sim.state().storageEvents.filter((e) => e.storage_name === "media-destroy")).toEqual([]);
      // Each event's DELETE was acted on once: the second found it gone (400 "event not found").
      expect(fresh.handled("DELETE", EVENT)).toHaveLength(2);
    } finally {
      await fresh.t.cleanup();
    }
  });

  test("up with the task read spoilt after the upgrade POST: partial state keeps the cluster; the next up follows the task, one POST", async () => {
    s.markLog();
    s.declared.clusterVersion = "v1.31.2";
    await spoil({ mode: "html200", pathPrefix: TASKS, method: "GET" });
    const message = await s.fails(() => s.stack.up(opts));
    expectClearError(message, /GET \/cloud\/v1\/tasks\//);
    const state = await resourcesByName(s.stack);
    expect([...state.keys()].sort()).toEqual(s.declaredNames());
    expect(state.get("cluster")?.outputs?.taskIds).toHaveLength(1);
    expect(state.get("cluster")?.initErrors?.length ?? 0).toBeGreaterThan(0);
    expect(s.handled("POST", UPGRADE)).toHaveLength(1);
    await s.converges();
    expect(s.handled("POST", UPGRADE)).toHaveLength(1);
    expect(sim.state().clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.31.2");
  });

  test("up creating an event whose POST is answered by nginx's 502 page and whose read-back is malformed: recorded as pending, the next up finds it, one POST", async () => {
    s.markLog();
    s.declared.events.requests = { name: "reaching_used_requests", storageName: "media", count: 7 };
    await spoil({ mode: "html502", path: EVENT, method: "POST" });
    await spoil({ mode: "truncated", path: EVENTS, method: "GET", after: 1 });
    const message = await s.fails(() => s.stack.up(opts));
    expect(message).toMatch(/may have taken effect/);
    const state = await resourcesByName(s.stack);
    expect([...state.keys()].sort()).toEqual(s.declaredNames());
    expect(String(state.get("requests")?.id)).toMatch(/^pending-create:/);
    expect(s.handled("POST", EVENT)).toHaveLength(1);
    await s.converges();
    expect(s.handled("POST", EVENT)).toHaveLength(1);
    const uuid = (await resourcesByName(s.stack)).get("requests")?.outputs?.uuid;
    expect(uuid).toBe(s.liveEvent("requests")?.uuid);
    expect(changesOf((await s.stack.refresh(opts)).summary.resourceChanges)).toEqual({});
  });

  if (kind === "plugin") return;

  test("up creating an event while the event list is {\"weird\":1}: no POST; a clean up creates it once", async () => {
    s.markLog();
    s.declared.events.traffic = { name: "reaching_used_traffic", bucketName: "photos", bytes: 2000 };
    await spoil({ mode: "wrongShape", path: EVENTS, method: "GET" });
    const message = await s.fails(() => s.stack.up(opts));
    expectClearError(message, /storage/);
    expect(s.handled("POST", EVENT)).toEqual([]);
    expect(await s.stateNames()).toEqual(s.declaredNames().filter((n) => n !== "traffic"));
    expect(await s.converges()).toEqual({ create: 1 });
    expect(s.handled("POST", EVENT)).toHaveLength(1);
  });

  test("up updating a limit whose PUT is answered by a 200 HTML page: the read-back confirms it, one PUT, success", async () => {
    s.markLog();
    s.declared.events.space = { ...s.declared.events.space, bytes: 3000 };
    await spoil({ mode: "html200", path: EVENT, method: "PUT", times: 1 });
    const up = await s.stack.up(opts);
    await admin(sim, "DELETE", "/malformed");
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(s.handled("PUT", EVENT)).toHaveLength(1);
    expect(s.liveEvent("space")?.bytes).toBe(3000);
    expect(await s.converges()).toEqual({});
  });

  test("up replacing an event while the event list is all nulls: no write at all; a clean up replaces it once", async () => {
    s.markLog();
    s.declared.events.files = { ...s.declared.events.files, bucketName: "videos" };
    await spoil({ mode: "nulls", path: EVENTS, method: "GET" });
    const message = await s.fails(() => s.stack.up(opts));
    expectClearError(message, /storage/);
    expect(s.log().filter((r) => r.method !== "GET")).toEqual([]);
    expect(await s.stateNames()).toEqual(s.declaredNames());
    expect(await s.converges()).toEqual({ replace: 1 });
    expect(s.handled("POST", EVENT)).toHaveLength(1);
    expect(s.handled("DELETE", EVENT)).toHaveLength(1);
  });

  test("up deleting an event whose DELETE is answered by a 502 page and whose read-back is a huge body: kept in the state; a clean up finishes, one DELETE acted on", async () => {
    s.markLog();
    const { traffic: _removed, ...rest } = s.declared.events;
    s.declared.events = rest;
    await spoil({ mode: "html502", path: EVENT, method: "DELETE" });
    await spoil({ mode: "hugeBody", path: EVENTS, method: "GET" });
    const message = await s.fails(() => s.stack.up(opts));
    expectClearError(message, /storage/);
    expect(await s.stateNames()).toEqual([...s.declaredNames(), "traffic"].sort());
    expect(await s.converges()).toEqual({ delete: 1 });
    expect(s.handled("DELETE", EVENT)).toHaveLength(1);
  });

  test("up upgrading while the cluster read is cut in half: no upgrade POST; a clean up upgrades once", async () => {
    s.markLog();
    s.declared.clusterVersion = "v1.32.1";
    await spoil({ mode: "truncated", path: CLUSTER_PATH, method: "GET" });
    const message = await s.fails(() => s.stack.up(opts));
    expectClearError(message, /demo-cluster/);
    expect(s.handled("POST", UPGRADE)).toEqual([]);
    expect(await s.stateNames()).toEqual(s.declaredNames());
    expect(await s.converges()).toEqual({ update: 1 });
    expect(s.handled("POST", UPGRADE)).toHaveLength(1);
  });
}
