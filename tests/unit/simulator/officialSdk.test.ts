/**
 * The platform's official Python SDK (PyPI `gcore` 0.59.0, installed outside the repo by
 * scripts/gcore-python-sdk.sh) parses the simulator's answers with its own models, validating
 * every field: a cluster (csi.nfs.ddn_enabled, pools with kubelet_config, crio_config and
 * security_group_ids), the cluster list, and every AI task record (processing_time).
 */
import { execFileSync } from "child_process";
import * as path from "path";
import { RunningSimulator } from "../../../simulator";
import { call, start } from "./helpers";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const SCRIPT = path.join(REPO_ROOT, "scripts/gcore-python-sdk.sh");

let sim: RunningSimulator;
let python: string;
beforeAll(async () => {
  execFileSync("bash", [SCRIPT], { stdio: ["ignore", "ignore", "inherit"] });
  python = execFileSync("bash", [SCRIPT, "--print-python"], { encoding: "utf8" }).trim();
  sim = await start();
});
afterAll(() => sim?.close());

/** Runs the model check; returns its exit status and output. */
function validate(answers: object): { status: number; output: string } {
  try {
    const output = execFileSync(python, [path.join(__dirname, "officialSdk.py")], { input: JSON.stringify(answers), encoding: "utf8" });
    return { status: 0, output };
  } catch (err) {
    const e = err as { status: number; stdout: string };
    return { status: e.status, output: e.stdout };
  }
}

async function answers() {
  return {
    cluster: (await call(sim.url, "GET", "/cloud/v2/k8s/clusters/1/76/prod-cluster")).body,
    clusterList: (await call(sim.url, "GET", "/cloud/v2/k8s/clusters/1/76")).body,
    aiTaskPage: (await call(sim.url, "GET", "/streaming/ai/tasks?limit=100")).body,
  };
}

test("gcore 0.59 models accept the simulator's cluster, cluster list and every AI task", async () => {
  const a = await answers();
  expect(a.aiTaskPage.results).toHaveLength(27);
  const r = validate(a);
  expect(r.output).toContain("checked 29 answers, 0 refused");
  expect(r.status).toBe(0);
});

test("the check refuses answers without the fields the models require (it can fail)", async () => {
  const a = await answers();
  delete a.cluster.csi.nfs.ddn_enabled;
  delete a.cluster.pools[0].security_group_ids;
  delete a.aiTaskPage.results[0].processing_time;
  const r = validate(a);
  expect(r.status).toBe(1);
  expect(r.output).toContain("ddn_enabled");
  expect(r.output).toContain("security_group_ids");
  expect(r.output).toContain("processing_time");
  expect(r.output).toContain("2 refused"); // the cluster (both fields) and the first AI task
});
