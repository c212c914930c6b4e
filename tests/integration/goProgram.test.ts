/**
 * A Go program on the generated SDK (sdk/go) drives the plugin against the simulator: three
 * lookups, one K8sClusterUpgrade (progress on its row) and one StorageEvent; up, a no-change
 * preview, destroy. The program (tests/integration/programs/go-plugin) is an Automation API
 * inline program; `scripts/go-program.sh` builds it once into the cache. Needs dist/ built.
 */
import { execFileSync } from "child_process";
import * as path from "path";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { REPO_ROOT, TEST_PASSPHRASE } from "./harness";
import { runLanguageProgram, stepOf, type ProgramRun } from "./pluginSupport";

jest.setTimeout(900_000);

let sim: RunningSimulator;
let run: ProgramRun;
const step = (name: string) => stepOf(run, name);

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
  const binary = execFileSync("bash", [path.join(REPO_ROOT, "scripts/go-program.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  run = await runLanguageProgram(binary, [], sim, TEST_PASSPHRASE);
});
afterAll(async () => {
  await sim.close();
});

test("up creates both resources from three lookups, with the upgrade's progress on its row", () => {
  expect(run.failure).toBeUndefined();
  const up = step("up");
  expect(up.changes).toEqual({ create: 3 });
  expect(up.outputs).toMatchObject({ projectId: 1, regionName: expect.any(String), clusterVersionSeen: "v1.30.4", upgradePath: ["v1.31.2"] });
  expect(sim.state().clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.31.2");
  expect(sim.state().storageEvents).toEqual([]); // destroyed at the end
  expect(sim.requests().filter((r) => r.method === "POST" && r.path.startsWith("/storage/"))).toHaveLength(1);
  expect(up.progress?.some((p) => p.ephemeral && p.urn.endsWith("::demo") && /demo-cluster/.test(p.message))).toBe(true);
});

test("then a no-change preview and a destroy that deletes the event; the key shows nowhere", () => {
  expect(step("preview").changes).toEqual({ same: 3 });
  expect(step("destroy").changes).toEqual({ delete: 3 });
  expect(sim.requests().filter((r) => r.method === "DELETE" && r.path.startsWith("/storage/"))).toHaveLength(1);
  expect(run.output).not.toContain(sim.apiKey);
  expect(run.backendLeaks).toEqual([]);
});
