/**
 * A TypeScript resource moved between the stack's account (the dynamic path, no provider) and
 * an explicit `cloud.Provider` of the same account, and back, keeps its event: the type token
 * and so the URN change, and the alias the SDK adds to the other token makes the engine see the
 * same resource (no replacement, no API write). After the move back the state again holds the
 * dynamic provider's `__provider`, so `refresh` and `destroy` work. And an existing event is
 * taken over with the `import` resource option under an explicit provider, which a dynamic
 * resource cannot do. Real CLI runs; the engine finds the plugin as the docs tell users with
 * nothing installed globally: `Pulumi.yaml` names the bin of the program's `node_modules`.
 */
import * as fs from "fs";
import * as path from "path";
import { createClient } from "../../provider/api";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { createTestStack, SDK_PATH, writeProgramDir, type TestStack } from "./harness";

jest.setTimeout(900_000);

const PROJECT = "provider-move";

const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const cloud = require(${JSON.stringify(SDK_PATH)});

const config = new pulumi.Config();
const account = new cloud.Provider("account", { baseUrl: config.require("url"), apiKey: config.requireSecret("key") });
const moved = new cloud.StorageEvent("moved", { name: "reaching_used_space", storageName: "media", bytes: 1000 },
  config.getBoolean("explicit") ? { provider: account } : {});
const imported = new cloud.StorageEvent("imported", { name: "reaching_used_traffic", storageName: "media", bytes: 5000 },
  { provider: account, import: config.require("importId") });
exports.uuid = moved.uuid;
exports.importedUuid = imported.uuid;
`;

let sim: RunningSimulator;
let t: TestStack;
let importId: string;
const steps: Record<string, { changes: Record<string, number>; uuid: unknown; type: string; hasProviderCode: boolean }> = {};
let refreshChanges: Record<string, number> | undefined;

/** What the state says of the resource `moved` now. */
async function movedState(): Promise<{ type: string; hasProviderCode: boolean }> {
  const resources = ((await t.stack.exportStack()).deployment as { resources: Array<Record<string, any>> }).resources;
  const r = resources.find((x) => String(x.urn).endsWith("::moved"));
  return { type: String(r?.type), hasProviderCode: "__provider" in (r?.outputs ?? {}) };
}

/** `up` with `explicit`, then a preview that must show no change; recorded as `step`. */
async function upAs(step: string, explicit: boolean): Promise<void> {
  await t.stack.setConfig(`${PROJECT}:explicit`, { value: String(explicit) });
  const up = await t.stack.up({ color: "never" });
  const preview = await t.stack.preview({ color: "never" });
  steps[step] = { changes: up.summary.resourceChanges ?? {}, uuid: up.outputs["uuid"]?.value, ...(await movedState()) };
  steps[`${step} preview`] = { changes: preview.changeSummary, uuid: undefined, type: "", hasProviderCode: false };
}

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey() });
  importId = String((await createClient({ baseUrl: sim.url, apiKey: sim.apiKey }).storage.notifications.create({ name: "reaching_used_traffic", storageName: "media", bytes: 5000 })).uuid);
  t = await createTestStack({
    projectName: PROJECT,
    writeProgram: (dir) => {
      writeProgramDir(dir, PROJECT, PROGRAM);
      fs.appendFileSync(path.join(dir, "Pulumi.yaml"), "plugins:\n  providers:\n    - name: cloudplatform\n      path: ./node_modules/pulumi-cloudplatform/bin\n");
    },
    // Only that: a plugin on PATH is not used.
    envVars: { PULUMI_IGNORE_AMBIENT_PLUGINS: "true" },
    config: {
      "cloudplatform:baseUrl": { value: sim.url },
      "cloudplatform:apiKey": { value: sim.apiKey, secret: true },
      [`${PROJECT}:url`]: { value: sim.url },
      [`${PROJECT}:key`]: { value: sim.apiKey, secret: true },
      [`${PROJECT}:importId`]: { value: importId },
    },
  });
  await upAs("dynamic", false);
  await upAs("to provider", true);
  await upAs("back", false);
  refreshChanges = (await t.stack.refresh({ color: "never" })).summary.resourceChanges;
  await t.stack.destroy({ color: "never" });
});
afterAll(async () => {
  await t?.cleanup();
  await sim?.close();
});

const storageWrites = () =>
  sim
    .requests()
    .filter((r) => r.path.startsWith("/storage/") && r.method !== "GET")
    .map((r) => `${r.method} ${r.status}`);

test("the import option takes over an existing event under an explicit provider", () => {
  expect(steps["dynamic"]?.changes).toMatchObject({ import: 1 });
  expect(steps["dynamic preview"]?.changes).toEqual({ same: 4 });
});

test("moved to an explicit provider and back, the event is kept: no replacement, no API write", () => {
  const uuid = steps["dynamic"]?.uuid;
  expect(typeof uuid).toBe("string");
  expect(steps["to provider"]).toMatchObject({ uuid, type: "cloudplatform:index:StorageEvent" });
  expect(steps["to provider"]?.changes).not.toHaveProperty("replace");
  expect(steps["to provider"]?.changes).not.toHaveProperty("create");
  expect(steps["back"]).toMatchObject({ uuid, type: "pulumi-nodejs:dynamic/cloudplatform:StorageEvent", hasProviderCode: true });
  expect(steps["back"]?.changes).not.toHaveProperty("replace");
  for (const step of ["to provider", "back"]) expect(steps[`${step} preview`]?.changes).toEqual({ same: 4 });
  // The test's own create of the imported event, the moved one's, then nothing until destroy deleted both.
  expect(storageWrites()).toEqual(["POST 200", "POST 200", "DELETE 204", "DELETE 204"]);
  expect(sim.state().storageEvents).toEqual([]);
});

test("after the move back, refresh reads the event through the dynamic provider", () => {
  expect(refreshChanges).toEqual({ same: 4 });
});
