/**
 * A stack written by the previous package keeps working with this one: the package packed from
 * {@link PREVIOUS_COMMIT} (whose resources stored `pulumi.dynamic.Resource`'s serialized
 * closures as `__provider`) creates two StorageEvents and a K8sClusterUpgrade; then the package
 * packed from this tree is installed in its place, as `npm install` of a new version does, and
 * the same stack is previewed (no update, no replace), brought up and refreshed (both converge),
 * updated (the updated resource now stores the one-line provider text) and destroyed.
 *
 * Needs `dist/` built. The previous package is built once and cached (previousPackage.ts).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { packPackage } from "./compatProgram";
import { createTestStack, resourcesByName, type TestStack } from "./harness";
import { installPackedPackage, PREVIOUS_COMMIT, previousPackageTarball } from "./previousPackage";

jest.setTimeout(600_000);

const PROJECT = "state-upgrade-it";
const CLUSTER = { name: "prod-cluster", target: "v1.31.2" };
/** The stack's resources of this package, by name: what must stay the same across the upgrade. */
const OURS = ["space", "requests", "cluster"];
/** Our resources plus the stack itself. */
const ALL = OURS.length + 1;

/** The program both versions run: plain JavaScript, the package required by name. */
const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const cloud = require("pulumi-cloudplatform");
const config = new pulumi.Config();
const space = new cloud.StorageEvent("space", { name: "reaching_used_space", storageName: "media", bytes: config.requireNumber("spaceBytes") });
const requests = new cloud.StorageEvent("requests", { name: "reaching_used_requests", storageName: "media", bucketName: "photos", count: 100 });
const cluster = new cloud.K8sClusterUpgrade("cluster", { projectId: 1, regionId: 76, clusterName: "${CLUSTER.name}", version: "${CLUSTER.target}" });
exports.space = space.uuid;
exports.requests = requests.uuid;
exports.version = cluster.version;
`;

const opts = { color: "never" as const };

let sim: RunningSimulator;
let t: TestStack | undefined;
let work: string;
let currentTarball: string;

/** Changes other than `same` in a preview or an operation's summary. */
function changesOf(summary: Record<string, number | undefined> | undefined): Record<string, number | undefined> {
  return Object.fromEntries(Object.entries(summary ?? {}).filter(([k]) => k !== "same"));
}

/** `__provider` of each of our resources, inputs and outputs. */
async function providerTexts(stack: Stack): Promise<Map<string, { inputs: string; outputs: string; entryBytes: number; source: string }>> {
  const byName = await resourcesByName(stack);
  return new Map(
    OURS.map((name) => {
      const r = byName.get(name);
      if (!r) throw new Error(`the stack records no \`${name}\``);
      const entryBytes = JSON.stringify(r).length;
      return [name, { inputs: String(r.inputs?.__provider), outputs: String(r.outputs?.__provider), entryBytes, source: String(r.sourcePosition) }];
    }),
  );
}

beforeAll(async () => {
  const previousTarball = previousPackageTarball();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-state-upgrade-"));
  currentTarball = packPackage(work);
  sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
  t = await createTestStack({
    stackName: "upgrade",
    writeProgram: (dir) => {
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${PROJECT}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n`);
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: PROJECT, version: "0.0.0", main: "index.js" }));
      fs.writeFileSync(path.join(dir, "index.js"), PROGRAM);
      installPackedPackage(dir, previousTarball);
    },
    config: {
      "cloudplatform:baseUrl": { value: sim.url },
      "cloudplatform:apiKey": { value: sim.apiKey, secret: true },
      [`${PROJECT}:spaceBytes`]: { value: "1000" },
    },
  });
});

afterAll(async () => {
  try {
    await t?.cleanup();
  } finally {
    await sim?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }
});

test(`the package of ${PREVIOUS_COMMIT.slice(0, 7)} creates the stack, storing its serialized closures`, async () => {
  const up = await t!.stack.up(opts);
  expect(up.summary.resourceChanges).toEqual({ create: ALL });
  for (const [name, p] of await providerTexts(t!.stack)) {
    expect({ name, closures: p.inputs.includes("__f0"), same: p.outputs === p.inputs }).toEqual({ name, closures: true, same: true });
  }
  expect(sim.state().clusters.find((c) => c.name === CLUSTER.name)?.version).toBe(CLUSTER.target);
});

test("with this package: preview shows no change, refresh and up converge", async () => {
  installPackedPackage(t!.programDir, currentTarball);
  const writesBefore = sim.requests().filter((r) => r.method !== "GET").length;

  const preview = await t!.stack.preview({ ...opts, expectNoChanges: true });
  expect(changesOf(preview.changeSummary)).toEqual({});
  expect(preview.changeSummary.same).toBe(ALL);
  // Refresh reads through the text in the outputs: 0.1.0's closures, served by this runtime.
  const refresh = await t!.stack.refresh({ ...opts, expectNoChanges: true });
  expect(changesOf(refresh.summary.resourceChanges)).toEqual({});
  const up = await t!.stack.up(opts);
  expect(changesOf(up.summary.resourceChanges)).toEqual({});
  expect(sim.requests().filter((r) => r.method !== "GET").length).toBe(writesBefore);

  // A `same` step records the new inputs; the outputs keep the text they were written with
  // until the resource is next updated.
  for (const [name, p] of await providerTexts(t!.stack)) {
    expect({ name, closures: p.inputs.includes("__f0"), oldOutputs: p.outputs.includes("__f0") }).toEqual({ name, closures: false, oldOutputs: true });
  }
});

test("an update in place stores the one-line text; destroy removes everything", async () => {
  await t!.stack.setConfig(`${PROJECT}:spaceBytes`, { value: "2000" });
  const up = await t!.stack.up(opts);
  expect(changesOf(up.summary.resourceChanges)).toEqual({ update: 1 });
  expect(sim.state().storageEvents.find((e) => e.name === "reaching_used_space")?.bytes).toBe(2000);
  const space = (await providerTexts(t!.stack)).get("space")!;
  expect(space.outputs).toBe(space.inputs);
  expect(space.inputs).not.toContain("__f0");
  expect(space.entryBytes).toBeLessThanOrEqual(1536);
  // The classes extend CustomResource directly, so Pulumi records the user's line, as with a generated SDK.
  expect(space.source).toMatch(/^project:\/\/\/index\.js#5,/);

  const destroy = await t!.stack.destroy(opts);
  expect(destroy.summary.result).toBe("succeeded");
  expect(sim.state().storageEvents).toEqual([]);
  expect(sim.state().clusters.find((c) => c.name === CLUSTER.name)?.version).toBe(CLUSTER.target);
});
