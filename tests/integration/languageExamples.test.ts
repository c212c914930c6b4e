/**
 * The Python and Go examples (examples/python-quickstart, examples/go-quickstart) run their own
 * program code against the simulator through the plugin, as Automation API inline programs (no
 * Python or Go language host is needed for that): up, the simulator's state right after it, a
 * no-change preview, destroy. One stack per example.
 *
 * Python: tests/integration/programs/python-plugin/run_example.py runs the example's
 * `__main__.py` unchanged, in the cached venv of scripts/python-env.sh. Go: the example's own
 * test (quickstart_test.go) drives the same `quickstart` function its `main` hands to
 * `pulumi.Run`; scripts/go-program.sh --test builds that test binary once into the cache.
 * Needs dist/ built. The YAML example runs in tests/integration/yaml.test.ts (with the YAML
 * language host `make pulumi-cli` provides).
 */
import { execFileSync } from "child_process";
import * as path from "path";
import type { StoredEvent } from "../../simulator/state";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { REPO_ROOT, TEST_PASSPHRASE } from "./harness";
import { runLanguageProgram, stepOf, type ProgramRun } from "./pluginSupport";
import { QUICKSTART_UP_OUTPUTS, quickstartEvents } from "./quickstartExpectations";

jest.setTimeout(900_000);

/** Stack config each example gets besides the provider's: its own storage, to tell its events apart. */
const exampleConfig = (storageName: string) => ({ EXAMPLE_CONFIG: JSON.stringify({ clusterName: "demo-cluster", targetVersion: "v1.31.2", storageName }) });

/** How the examples are started: the executable and its arguments. */
const runners: Record<string, () => { executable: string; args: string[] }> = {
  python: () => {
    const venv = execFileSync("bash", [path.join(REPO_ROOT, "scripts/python-env.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
    return {
      executable: path.join(venv, "bin", "python"),
      args: [path.join(REPO_ROOT, "tests/integration/programs/python-plugin/run_example.py"), path.join(REPO_ROOT, "examples/python-quickstart")],
    };
  },
  go: () => {
    const binary = execFileSync("bash", [path.join(REPO_ROOT, "scripts/go-program.sh"), "--test", path.join(REPO_ROOT, "examples/go-quickstart")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
    return { executable: binary, args: ["-test.run", "^TestQuickstartInline$", "-test.v"] };
  },
};

describe.each(Object.keys(runners))("examples/%s-quickstart", (language) => {
  const storageName = `${language}-storage`;
  let sim: RunningSimulator;
  let run: ProgramRun;
  const step = (name: string) => stepOf(run, name);

  beforeAll(async () => {
    sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
    const { executable, args } = runners[language]!();
    run = await runLanguageProgram(executable, args, sim, TEST_PASSPHRASE, exampleConfig(storageName));
  });
  afterAll(async () => {
    await sim.close();
  });

  test("up upgrades demo-cluster one permitted step, with progress on the upgrade's row", () => {
    expect(run.failure).toBeUndefined();
    const up = step("up");
    expect(up.changes).toEqual({ create: 4 });
    expect(up.outputs).toMatchObject(QUICKSTART_UP_OUTPUTS);
    const upgrades = sim.requests().filter((r) => r.method === "POST" && r.path.endsWith("/demo-cluster/upgrade"));
    expect(upgrades).toHaveLength(1);
    expect(sim.state().clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.31.2");
    expect(up.progress?.some((p) => p.ephemeral && p.urn.endsWith("::cluster-version") && /demo-cluster/.test(p.message))).toBe(true);
  });

  test("up creates exactly the two declared thresholds in the simulator", () => {
    const outputs = step("up").outputs ?? {};
    const events = (step("simulator").state?.["storageEvents"] ?? []) as StoredEvent[];
    const byUuid = new Map(events.map((e) => [e.uuid, e]));
    expect(events).toHaveLength(2);
    for (const want of quickstartEvents(outputs, storageName)) expect(byUuid.get(want.uuid)).toEqual(want);
  });

  test("then a no-change preview, and destroy deletes both events and leaves the cluster upgraded; the key shows nowhere", () => {
    expect(step("preview").changes).toEqual({ same: 4 });
    expect(step("destroy").changes).toEqual({ delete: 4 });
    expect(sim.state().storageEvents).toEqual([]);
    expect(sim.requests().filter((r) => r.method === "DELETE" && r.path.startsWith("/storage/"))).toHaveLength(2);
    expect(sim.state().clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.31.2");
    expect(run.output).not.toContain(sim.apiKey);
    expect(run.backendLeaks).toEqual([]);
  });
});
