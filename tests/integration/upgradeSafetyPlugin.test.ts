/**
 * K8sClusterUpgrade's quota check and health watch on the plugin path (see upgradeSafetySuite.ts),
 * and the three-wave fleet of five clusters of examples/fleet-upgrade/python/__main__.py, run
 * unchanged through the plugin as an Automation API inline program
 * (tests/integration/programs/python-plugin/run_example.py): up, a no-change preview, destroy.
 */
import { execFileSync } from "child_process";
import * as path from "path";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { REPO_ROOT, TEST_PASSPHRASE } from "./harness";
import { runLanguageProgram, stepOf } from "./pluginSupport";
import { expectWavesInOrder, FLEET_WAVES } from "./fleetExpectations";
import { upgradeSafetySuite } from "./upgradeSafetySuite";

upgradeSafetySuite("plugin");

describe("examples/fleet-upgrade/python through the plugin", () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ apiKey: newKey(), timeScale: 60 });
  });
  afterAll(() => sim?.close());

  test("upgrades the five clusters of project 3 in three waves, each after the one before is upgraded and soaked; then no changes", async () => {
    const venv = execFileSync("bash", [path.join(REPO_ROOT, "scripts/python-env.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
    const run = await runLanguageProgram(
      path.join(venv, "bin", "python"),
      [path.join(REPO_ROOT, "tests/integration/programs/python-plugin/run_example.py"), path.join(REPO_ROOT, "examples/fleet-upgrade/python")],
      sim,
      TEST_PASSPHRASE,
      { EXAMPLE_CONFIG: JSON.stringify({ soakSeconds: "1" }) },
    );
    expect(run.failure).toBeUndefined();
    const up = stepOf(run, "up");
    expect(up.changes).toEqual({ create: 6 });
    expect(up.outputs?.["waves"]).toEqual(FLEET_WAVES);
    expectWavesInOrder(sim.state(), "v1.31.2");
    expect(up.progress?.some((p) => p.ephemeral && p.urn.endsWith("::prod-query-version") && /watching it for soakSeconds \(1s\)/.test(p.message))).toBe(true);
    expect(stepOf(run, "preview").changes).toEqual({ same: 6 });
    expect(stepOf(run, "destroy").changes).toEqual({ delete: 6 });
    expect(run.output).not.toContain(sim.apiKey);
  });
});
