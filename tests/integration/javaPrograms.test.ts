/**
 * Java programs for real, on the generated Java SDK (sdk/java, built with Maven) and the plugin:
 * `pulumi` with the Java language host of tools/javahost runs `mvn compile exec:java` in a copy
 * of each Maven project (tests/integration/javaProject.ts), against the simulator.
 *
 * - examples/java-quickstart unchanged: up (the quickstart's outputs, the simulator's two
 *   events with their limits: 500 GiB does not fit a Java Integer), a no-change preview, destroy.
 * - examples/testing-java: its JUnit tests under Pulumi Java's mocks (`mvn test`), every one run
 *   and passing.
 * - tests/integration/programs/java-limits: a StorageEvent whose `bytes` comes from config:
 *   the platform's range (500 GiB, 2^53 - 1) is stored exactly; a negative or fractional value
 *   is refused at preview naming `bytes`, with no write.
 *
 * Needs dist/ built (the plugin runs it), Java 17+ and Maven on PATH.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { REPO_ROOT } from "./harness";
import { javaProject, type JavaProject } from "./javaProject";
import { QUICKSTART_UP_OUTPUTS, quickstartEvents } from "./quickstartExpectations";

jest.setTimeout(600_000);

/** A stack `stack` of `p` pointed at `sim`. */
async function initStack(p: JavaProject, stack: string, sim: RunningSimulator, config: Record<string, string> = {}): Promise<void> {
  await p.cli(stack, ["stack", "init"]);
  await p.cli(stack, ["config", "set", "cloudplatform:baseUrl", sim.url]);
  await p.cli(stack, ["config", "set", "--secret", "cloudplatform:apiKey", sim.apiKey]);
  for (const [k, v] of Object.entries(config)) await p.cli(stack, ["config", "set", k, "--", v]);
}

describe("examples/java-quickstart", () => {
  let sim: RunningSimulator;
  let p: JavaProject;

  beforeAll(async () => {
    sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
    p = javaProject(path.join(REPO_ROOT, "examples/java-quickstart"));
    await initStack(p, "dev", sim, { storageName: "java-storage" });
  });
  afterAll(async () => {
    p?.cleanup();
    await sim?.close();
  });

  test("up upgrades demo-cluster one permitted step and creates the two thresholds, 500 GiB exactly", async () => {
    await p.cli("dev", ["up", "--yes", "--skip-preview"]);
    const outputs = await p.outputs("dev");
    expect(outputs).toMatchObject(QUICKSTART_UP_OUTPUTS);
    expect(sim.state().clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.31.2");
    const byUuid = new Map(sim.state().storageEvents.map((e) => [e.uuid, e]));
    expect(sim.state().storageEvents).toHaveLength(2);
    for (const want of quickstartEvents(outputs, "java-storage")) expect(byUuid.get(want.uuid)).toEqual(want);
  });

  test("then a preview shows no change, and destroy deletes both events", async () => {
    const preview = await p.cli("dev", ["preview", "--expect-no-changes", "--diff"]);
    expect(preview.text).not.toMatch(/[~+-]\s+cloudplatform:index/);
    await p.cli("dev", ["destroy", "--yes", "--skip-preview"]);
    expect(sim.state().storageEvents).toEqual([]);
    expect(sim.state().clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.31.2");
  });
});

test("examples/testing-java: `mvn test` runs both unit tests under Pulumi's mocks, and they pass", async () => {
  const p = javaProject(path.join(REPO_ROOT, "examples/testing-java"));
  try {
    // The project's .mvn/maven.config names the Maven cache and the checkout's SDK.
    const run = await new Promise<{ code: number; text: string }>((resolve) =>
      execFile("mvn", ["-q", "test"], { cwd: p.dir, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, text: stdout + stderr })),
    );
    expect({ code: run.code, text: run.code === 0 ? "" : run.text }).toEqual({ code: 0, text: "" });
    const report = fs.readFileSync(path.join(p.dir, "target/surefire-reports/TEST-infra.AppTest.xml"), "utf8");
    expect(report).toMatch(/<testsuite [^>]*tests="2" errors="0" skipped="0" failures="0"/);
  } finally {
    p.cleanup();
  }
});

describe("a Java program's byte limit from config (tests/integration/programs/java-limits)", () => {
  let sim: RunningSimulator;
  let p: JavaProject;

  beforeAll(async () => {
    sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
    p = javaProject(path.join(REPO_ROOT, "tests/integration/programs/java-limits"));
    await initStack(p, "dev", sim, { bytes: String(500 * 1024 ** 3) });
  });
  afterAll(async () => {
    p?.cleanup();
    await sim?.close();
  });

  test("500 GiB, then 2^53 - 1 (the largest the provider takes), are stored exactly, the second in place", async () => {
    await p.cli("dev", ["up", "--yes", "--skip-preview"]);
    const [event] = sim.state().storageEvents;
    expect(event).toMatchObject({ name: "reaching_used_space", storage_name: "java-limits", bytes: 500 * 1024 ** 3 });
    expect((await p.outputs("dev"))["bytes"]).toBe(500 * 1024 ** 3);
    await p.cli("dev", ["config", "set", "bytes", String(Number.MAX_SAFE_INTEGER)]);
    await p.cli("dev", ["up", "--yes", "--skip-preview"]);
    expect(sim.state().storageEvents).toEqual([{ ...event, bytes: Number.MAX_SAFE_INTEGER }]);
  });

  test.each([["-1"], ["1.5"]])("bytes %s is refused at preview, naming bytes, and nothing is written", async (value) => {
    await p.cli("dev", ["config", "set", "bytes", "--", value]);
    const writes = sim.requests().filter((r) => r.method !== "GET").length;
    const preview = await p.cli("dev", ["preview"], true);
    expect(preview.code).not.toBe(0);
    expect(preview.text).toMatch(/bytes must be a non-negative integer/);
    expect(sim.requests().filter((r) => r.method !== "GET")).toHaveLength(writes);
  });
});
