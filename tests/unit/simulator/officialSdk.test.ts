/**
 * The platform's official Python SDK (PyPI `gcore` 0.59.0, installed outside the repo by
 * scripts/gcore-python-sdk.sh) parses the simulator's answers with its own models, validating
 * every field: a cluster (csi.nfs.ddn_enabled, pools with kubelet_config, crio_config and
 * security_group_ids), the cluster list, the AI task page and every AI task record
 * (processing_time), the regions, a cluster upgrade task and the instances. In both dialects
 * (CONTRACT.md "Dialects"): "public-api" may only send what the public models accept, so its
 * trimmed clusters, the Provisioning cluster, the SDK-shaped AI tasks without `count`, the extra
 * regions and the per-key nulls of `created_resources` are checked too.
 */
import { execFile, execFileSync } from "child_process";
import * as path from "path";
import { RunningSimulator, SimulatorDialect } from "../../../simulator";
import { PROVISIONING_CLUSTER_NAME } from "../../../simulator/answers/k8s";
import { CPU_BOUND_MS } from "../cpuBound";
import { call, start } from "./helpers";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const SCRIPT = path.join(REPO_ROOT, "scripts/gcore-python-sdk.sh");

let python: string;
const sims: Partial<Record<SimulatorDialect, RunningSimulator>> = {};
// The first run on a machine installs the SDK (a download of about 20 s; `make test-unit` does
// it before jest starts), hence this hook's own time limit. Each check starts Python and loads
// the SDK's models: CPU work, hence CPU_BOUND_MS on the tests.
beforeAll(async () => {
  execFileSync("bash", [SCRIPT], { stdio: ["ignore", "ignore", "inherit"] });
  python = execFileSync("bash", [SCRIPT, "--print-python"], { encoding: "utf8" }).trim();
  sims.regular = await start();
  sims["public-api"] = await start({ dialect: "public-api" });
}, 180_000);
afterAll(async () => {
  await sims.regular?.close();
  await sims["public-api"]?.close();
});

/**
 * Runs the model check; resolves with its exit status and output. Why not execFileSync: a check
 * takes seconds on a busy machine, and a blocked event loop misses the simulator closing an idle
 * keep-alive connection, so the next request went out on a closed socket (ECONNRESET).
 */
function validate(answers: object): Promise<{ status: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(python, [path.join(__dirname, "officialSdk.py")], { encoding: "utf8" }, (err, stdout) => {
      if (err && typeof err.code !== "number") reject(err);
      else resolve({ status: err ? Number(err.code) : 0, output: stdout });
    });
    child.stdin?.end(JSON.stringify(answers));
  });
}

/** Answers of one simulator, keyed as officialSdk.py reads them. */
async function answers(sim: RunningSimulator) {
  const get = async (p: string) => (await call(sim.url, "GET", p)).body;
  const regions: unknown[] = [];
  for (let offset = 0; ; ) {
    const page = (await get(`/cloud/v1/regions?offset=${offset}`)).results as unknown[];
    if (page.length === 0) break;
    regions.push(...page);
    offset += page.length;
  }
  const instances: Array<Record<string, unknown>> = [];
  for (let offset = 0; ; ) {
    const page = (await get(`/cloud/v1/instances/1/76?offset=${offset}`)).results as Array<Record<string, unknown>>;
    if (page.length === 0) break;
    instances.push(...page);
    offset += page.length;
  }
  const up = await call(sim.url, "POST", "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade", { body: { version: "v1.31.2" } });
  const taskId = up.body.tasks[0] as string;
  const newTask = await get(`/cloud/v1/tasks/${taskId}`);
  await call(sim.url, "POST", `/__admin/tasks/${taskId}/finish`, { key: null });
  const finishedTask = await get(`/cloud/v1/tasks/${taskId}`);
  const a = {
    cluster: await get("/cloud/v2/k8s/clusters/1/76/prod-cluster"),
    clusterList: await get("/cloud/v2/k8s/clusters/1/76"),
    clusters: [] as unknown[],
    aiTaskPage: await get("/streaming/ai/tasks?limit=100"),
    regions,
    tasks: [newTask, finishedTask],
    instances,
  };
  sim.reset();
  return a;
}

/** How many answers officialSdk.py checks for these. */
function expectedChecks(a: Awaited<ReturnType<typeof answers>>): number {
  return 3 + a.clusters.length + a.aiTaskPage.results.length + a.regions.length + a.tasks.length + a.instances.length;
}

test("gcore 0.59 models accept the regular answers: cluster, cluster list, AI tasks, regions, tasks, instances", async () => {
  const a = await answers(sims.regular as RunningSimulator);
  expect(a.aiTaskPage.results).toHaveLength(27);
  expect(a.regions).toHaveLength(5);
  expect(a.instances).toHaveLength(25);
  expect(a.tasks[1]).toMatchObject({ state: "FINISHED" });
  const r = await validate(a);
  expect(r.output).toContain(`checked ${expectedChecks(a)} answers, 0 refused`);
  expect(r.status).toBe(0);
}, CPU_BOUND_MS);

test("gcore 0.59 models accept the public-api answers, the Provisioning cluster and SDK-shaped AI tasks included", async () => {
  const a = await answers(sims["public-api"] as RunningSimulator);
  const names = a.clusterList.results.map((c: { name: string }) => c.name);
  expect(names).toContain(PROVISIONING_CLUSTER_NAME);
  a.clusters.push((await call((sims["public-api"] as RunningSimulator).url, "GET", `/cloud/v2/k8s/clusters/1/76/${PROVISIONING_CLUSTER_NAME}`)).body);
  expect(a.cluster).not.toHaveProperty("creator_task_id");
  expect(a.aiTaskPage).not.toHaveProperty("count");
  expect(a.aiTaskPage.next).toBeNull();
  expect(a.aiTaskPage.results).toHaveLength(27);
  expect(a.aiTaskPage.results[0]).not.toHaveProperty("task_name");
  expect(a.regions.map((r) => (r as { state: string }).state)).toEqual(expect.arrayContaining(["NEW", "DELETION_FAILED"]));
  expect(Object.values(a.tasks[1].created_resources)).toContain(null);
  // The older-shaped instances (odd positions) are the older Go SDK's shape, which the current
  // model refuses; the current-shaped ones (with optional fields left out) must pass.
  const older = a.instances.filter((i) => "instance_id" in i);
  a.instances = a.instances.filter((i) => !("instance_id" in i));
  expect(older).toHaveLength(12);
  expect(a.instances).toHaveLength(13);
  const r = await validate(a);
  expect(r.output).toContain(`checked ${expectedChecks(a)} answers, 0 refused`);
  expect(r.status).toBe(0);
  const refused = await validate({ ...a, instances: older.slice(0, 1) });
  expect(refused.status).toBe(1);
  expect(refused.output).toContain("created_at");
}, CPU_BOUND_MS);

test("the check refuses answers without the fields the models require (it can fail)", async () => {
  const a = await answers(sims.regular as RunningSimulator);
  delete a.cluster.csi.nfs.ddn_enabled;
  delete a.cluster.pools[0].security_group_ids;
  delete a.aiTaskPage.results[0].processing_time;
  const r = await validate(a);
  expect(r.status).toBe(1);
  expect(r.output).toContain("ddn_enabled");
  expect(r.output).toContain("security_group_ids");
  expect(r.output).toContain("processing_time");
  // The cluster (both fields), the AI task page (its first record) and the first AI task.
  expect(r.output).toContain("3 refused");
}, CPU_BOUND_MS);
