/**
 * K8sClusterUpgrade's guards through the real CLI (Automation API) against a simulator at 60x,
 * on the dynamic path (the TypeScript SDK's class, upgradeSafetyDynamic.test.ts) and on the
 * plugin path (the schema token, the `cloudplatform` plugin on PATH, upgradeSafetyPlugin.test.ts):
 * one stack per path, its declaration changed between the steps.
 *
 * - A quota too small fails `preview` and `up` with the message (pool, quota, limit, usage,
 *   requested, what to do) and no upgrade POST; once the quota is raised, `up` upgrades.
 * - The quota check's endpoint missing (404) only warns, once: the upgrade goes on as it did
 *   before the check existed (here into the task's own quota failure).
 * - A pool that turns unhealthy during the soak fails the upgrade with the version reached
 *   recorded, and the resource that depends on it (the next wave) does not start.
 * The three-wave fleet of five clusters runs as the examples: examples/fleet-upgrade on the
 * dynamic path (examples.test.ts), its Python program on the plugin path (the plugin file).
 *
 * Needs `npx tsc -p tsconfig.json` first (the providers run dist/).
 */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { K8sClusterUpgrade } from "../../sdk/nodejs";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { admin, newKey } from "../unit/api/helpers";
import { createTestStack, resourcesByName, type TestStack } from "./harness";
import { pluginPathDir } from "./pluginSupport";

/** Which path a run of the suite drives. */
export type Kind = "dynamic" | "plugin";

const K8S = "cloudplatform:index:K8sClusterUpgrade";
const opts = { color: "never" as const };

/** One K8sClusterUpgrade the program declares; `after` names the resource it depends on. */
interface Declared {
  projectId: number;
  clusterName: string;
  version: string;
  soakSeconds?: number;
  after?: string;
}

/** A resource of the plugin by its schema token, as a generated SDK's class registers it. */
class PluginResource extends pulumi.CustomResource {
  constructor(token: string, name: string, props: pulumi.Inputs, options?: pulumi.CustomResourceOptions) {
    super(token, name, props, options);
  }
}

/** The upgrade of `staging-cluster` (project 2, vm_count quota 4) as refused at preview. */
export const STAGING_REFUSAL =
  "cluster staging-cluster cannot be upgraded to v1.30.4 within its project's quota: the rolling replacement creates new nodes before it removes old ones, " +
  "so project 2 in region 76 must hold a second pool pool-1 (3 nodes of g1-standard-2-4) while it runs, and that would exceed vm_count (limit 4, usage 3, requested 3). " +
  "Raise the quota (vm_count to at least 6) or shrink pool pool-1 first, then run again. Nothing was written. [CLOUDPLATFORM_QUOTA]";

/** What an operation printed and its engine events, and its error when it failed. */
interface Run {
  output: string;
  events: EngineEvent[];
  error?: string;
}

/** Registers the suite of one path. */
export function upgradeSafetySuite(kind: Kind): void {
  jest.setTimeout(600_000);
  let sim: RunningSimulator;
  let t: TestStack;
  let declared: Record<string, Declared> = {};

  const program = async () => {
    const made: Record<string, pulumi.CustomResource> = {};
    for (const [name, d] of Object.entries(declared)) {
      const args = { projectId: d.projectId, regionId: 76, clusterName: d.clusterName, version: d.version, ...(d.soakSeconds ? { soakSeconds: d.soakSeconds } : {}) };
      const options = d.after && made[d.after] ? { dependsOn: [made[d.after] as pulumi.CustomResource] } : {};
      made[name] = kind === "dynamic" ? new K8sClusterUpgrade(name, args, options) : new PluginResource(K8S, name, { ...args, status: undefined }, options);
    }
    return {};
  };

  beforeAll(async () => {
    sim = await startSimulator({ apiKey: newKey(), timeScale: 60 });
    t = await createTestStack({
      projectName: `upgrade-safety-${kind}`,
      program,
      config: { "cloudplatform:baseUrl": { value: sim.url }, "cloudplatform:apiKey": { value: sim.apiKey, secret: true } },
      ...(kind === "plugin" ? { envVars: { PATH: `${pluginPathDir()}${path.delimiter}${process.env.PATH ?? ""}` } } : {}),
    });
  });
  afterAll(async () => {
    t?.discard(); // the simulator closes next
    await sim?.close();
  });

  /** Runs `op` (preview or up) collecting its output and events; a failure is returned, not thrown. */
  async function run(op: "preview" | "up"): Promise<Run> {
    const r: Run = { output: "", events: [] };
    const options = { ...opts, onOutput: (s: string) => (r.output += s), onEvent: (e: EngineEvent) => r.events.push(e) };
    try {
      await (op === "up" ? t.stack.up(options) : t.stack.preview(options));
    } catch (err) {
      r.error = String((err as Error).message);
    }
    return r;
  }
  const stack = (): Stack => t.stack;
  /**
   * The quota check's warnings of a run: through the plugin, engine diagnostics of severity
   * warning on the resource; through the dynamic provider (no engine log of its own), its stderr
   * lines, which the engine passes on as diagnostics, marked `warning:`.
   */
  const warned = (r: Run): string[] =>
    r.events
      .map((e) => e.diagnosticEvent)
      .filter((d) => d !== undefined && /the quota check for the upgrade could not be answered/.test(d.message))
      .filter((d) => (kind === "plugin" ? d?.severity === "warning" && d.urn?.endsWith("::staging") : /K8sClusterUpgrade: warning: staging-cluster: /.test(d?.message ?? "")))
      .map((d) => d?.message ?? "");
  const posts = (suffix: string) => sim.requests().filter((r) => r.method === "POST" && r.path.endsWith(suffix));
  const live = (name: string) => sim.state().clusters.find((c) => c.name === name);

  test("a quota too small fails preview and up with the pool, the quota, its limit, usage, request and what to do, and no upgrade POST; raised, up upgrades", async () => {
    declared = { staging: { projectId: 2, clusterName: "staging-cluster", version: "v1.30.4" } };
    for (const op of ["preview", "up"] as const) {
      const r = await run(op);
      expect({ op, refused: r.error?.includes(STAGING_REFUSAL) }).toEqual({ op, refused: true });
    }
    expect(posts("/staging-cluster/upgrade")).toEqual([]);
    expect(posts("/2/76/pools/check_limits").length).toBeGreaterThanOrEqual(2);

    await admin(sim, "PUT", "/quotas/2", { vm_count: 6 });
    const up = await run("up");
    expect(up.error).toBeUndefined();
    expect((await resourcesByName(stack())).get("staging")?.outputs).toMatchObject({ version: "v1.30.4", status: "Provisioned" });
    expect(posts("/staging-cluster/upgrade")).toHaveLength(1);
  });

  test("the quota check's endpoint missing only warns, once, and the upgrade goes on (here into the task's own quota failure)", async () => {
    await admin(sim, "PUT", "/quotas/2", { vm_count: 4 });
    await admin(sim, "POST", "/unserved", { path: "/cloud/v2/k8s/clusters/2/76/pools/check_limits" });
    declared = { staging: { projectId: 2, clusterName: "staging-cluster", version: "v1.31.2" } };
    const preview = await run("preview");
    expect(preview.error).toBeUndefined();
    expect(warned(preview)).toHaveLength(1);
    expect(warned(preview)[0]).toContain("Path /cloud/v2/k8s/clusters/2/76/pools/check_limits could not be found");

    const up = await run("up");
    expect(warned(up)).toHaveLength(1);
    expect(up.error).toContain("Quota limit for vm_count exceeded by 2");
    expect(live("staging-cluster")?.version).toBe("v1.30.4");
    expect((await resourcesByName(stack())).get("staging")?.outputs).toMatchObject({ version: "v1.30.4" });
    await admin(sim, "DELETE", "/unserved");
  });

  test("a pool turning unhealthy during the soak fails the upgrade with the version reached recorded, and the next wave does not start", async () => {
    await admin(sim, "POST", "/clusters/1/76/prod-cluster/pools/pool-1/unhealthy", { status: "Error", after_reads: 1 });
    declared = {
      wave1: { projectId: 1, clusterName: "prod-cluster", version: "v1.31.2", soakSeconds: 120 },
      wave2: { projectId: 1, clusterName: "demo-cluster", version: "v1.31.2", after: "wave1" },
    };
    const up = await run("up");
    expect(up.error).toContain("prod-cluster: the cluster left the healthy state");
    expect(up.error).toContain("into soakSeconds (120s): pool pool-1 reports status Error, not Running.");

    const state = await resourcesByName(stack());
    // The version reached, and no watch passed (so the next up watches again, refresh or not).
    expect(state.get("wave1")?.outputs).toMatchObject({ version: "v1.31.2", upgradePath: ["v1.31.2"], soakSeconds: 0 });
    expect(state.has("wave2")).toBe(false);
    expect(posts("/demo-cluster/upgrade")).toEqual([]);
    expect(live("demo-cluster")?.version).toBe("v1.30.4");
    expect(live("prod-cluster")?.version).toBe("v1.31.2");
    if (kind === "plugin") {
      // Progress on the resource's own row: the soak's status lines carry its URN.
      const onRow = up.events.filter((e) => e.diagnosticEvent?.ephemeral && e.diagnosticEvent.urn?.endsWith("::wave1"));
      expect(onRow.some((e) => /watching it for soakSeconds \(120s\)/.test(e.diagnosticEvent?.message ?? ""))).toBe(true);
    } else {
      expect(up.output).toContain("[cloudplatform] K8sClusterUpgrade: prod-cluster: healthy at v1.31.2; watching it for soakSeconds (120s)");
    }

    // What the next up plans, and a drift job (preview --refresh) sees of the fleet half-way:
    // the failed wave updated (watched again), the next wave created; nothing refused.
    for (const refresh of [false, true]) {
      const next = await stack().preview({ ...opts, refresh });
      expect({ refresh, changes: next.changeSummary }).toEqual({ refresh, changes: expect.objectContaining({ update: 1, create: 1 }) });
    }
  });
}
