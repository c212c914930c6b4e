/**
 * An integration test: the real `pulumi` CLI runs this project (index.ts, as `pulumi up` does)
 * through the Automation API against the package's simulator, started inside the test with its
 * built-in seed. The first create of the storage threshold is answered with a 503; the provider
 * must read back and create it once more, and the stack must then refresh clean and destroy.
 * Needs the Pulumi CLI on PATH; a temporary file backend keeps it off your real stacks.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { startTestSimulator, type TestSimulator } from "pulumi-cloudplatform/testing";

const EVENT_PATH = "/storage/notifications/v1/event";

let sim: TestSimulator;
let stack: Stack;
let work: string;

beforeAll(async () => {
  sim = await startTestSimulator({ timeScale: 60 }); // an upgrade task takes half a second
  work = fs.mkdtempSync(path.join(os.tmpdir(), "testing-typescript-"));
  stack = await LocalWorkspace.createStack(
    { stackName: "integration", workDir: work },
    {
      // `main` is this project, so the program and the provider find its node_modules.
      projectSettings: { name: "testing-typescript", runtime: "nodejs", main: __dirname, backend: { url: `file://${work}` } },
      envVars: { PULUMI_CONFIG_PASSPHRASE: "integration-test", PULUMI_SKIP_UPDATE_CHECK: "true" },
    },
  );
  await stack.setAllConfig(sim.stackConfig);
});

afterAll(async () => {
  await stack?.workspace.removeStack("integration", { force: true }).catch(() => undefined);
  await sim?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("up, refresh and destroy against the simulator, through a 503 on the threshold's first create", async () => {
  await sim.injectFaults({ errorRate: 1, path: EVENT_PATH, method: "POST", times: 1 });

  const up = await stack.up();
  expect(up.summary.result).toBe("succeeded");
  expect(up.outputs["clusterVersion"]?.value).toBe("v1.31.2");
  const state = await sim.state();
  expect(state.clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.31.2");
  expect(state.storageEvents.map((e) => [e.uuid, e.name, e.storage_name, e.bytes])).toEqual([
    [up.outputs["spaceEventUuid"]?.value, "reaching_used_space", "media", 500 * 1024 ** 3],
  ]);
  // The 503 came before the simulator acted; the provider checked, then created it once.
  expect((await sim.requests({ method: "POST", path: EVENT_PATH })).map((r) => r.status)).toEqual([503, 200]);

  const refresh = await stack.refresh({ expectNoChanges: true });
  expect(refresh.summary.result).toBe("succeeded");

  const destroy = await stack.destroy();
  expect(destroy.summary.result).toBe("succeeded");
  expect((await sim.state()).storageEvents).toEqual([]);
});
