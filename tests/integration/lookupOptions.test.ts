/**
 * A TypeScript lookup's invoke options through a real engine, with the plugin on PATH: an
 * explicit provider of package `cloudplatform` (given directly, or held by a parent) sends the
 * lookup to that provider's account, in both forms, and its answer has the shape of the
 * in-process lookup's; `version` and `pluginDownloadURL` send it to the engine's default provider
 * of that version and download URL (recorded in the state, which an in-process lookup never
 * touches); a lookup without options still runs in the program with the stack's config. A
 * `preview` (the providers not created yet) and an `up` of one program written as a user writes
 * it (JavaScript in the language host). The refused options are checked in
 * tests/unit/lookups/options.test.ts.
 */
import * as fs from "fs";
import * as path from "path";
import type { PreviewResult } from "@pulumi/pulumi/automation";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { createTestStack, REPO_ROOT, SDK_PATH, suiteProcessEnv, writeProgramDir, type TestStack } from "./harness";
import { pluginPathDir } from "./pluginSupport";

jest.setTimeout(600_000);

/** The other account's seed: the default one with its default project renamed. */
function otherSeed(): object {
  const seed = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "simulator/seed/default.json"), "utf8")) as { projects: { name: string; is_default: boolean }[] };
  for (const p of seed.projects) if (p.is_default) p.name = "other-account";
  return seed;
}

const DOWNLOAD_URL = "http://127.0.0.1:9/cloudplatform-plugins/";

const PROGRAM = `
const { isDeepStrictEqual } = require("util");
const pulumi = require("@pulumi/pulumi");
const cp = require(${JSON.stringify(SDK_PATH)});

/** A provider of package cloudplatform, as a program without the generated SDK declares one. */
class CloudPlatformProvider extends pulumi.ProviderResource {
  constructor(name, args, opts) {
    super("cloudplatform", name, args, opts);
  }
}
const config = new pulumi.Config();
const other = new CloudPlatformProvider("other", { baseUrl: config.require("otherUrl"), apiKey: config.requireSecret("otherKey") });
const home = new CloudPlatformProvider("home", { baseUrl: config.require("homeUrl"), apiKey: config.requireSecret("homeKey") });
const team = new pulumi.ComponentResource("test:index:Team", "team", {}, { providers: { cloudplatform: other } });
const cluster = { projectId: 1, regionId: 76, clusterName: "demo-cluster" };

exports.inProgram = cp.getProjectOutput().name;
exports.viaProvider = cp.getProjectOutput({}, { provider: other }).name;
exports.viaProviderPromise = cp.getProject({}, { provider: other }).then((p) => p.name);
exports.viaParent = cp.getProjectOutput({}, { parent: team }).name;
exports.viaVersion = cp.getRegionOutput({ name: "Luxembourg-2" }, { version: "0.1.0" }).id;
exports.viaDownloadUrl = cp.getCurrentClientOutput({}, { pluginDownloadURL: ${JSON.stringify(DOWNLOAD_URL)} }).id;
// The same account in the program and through the plugin: the same value, nulls included.
exports.sameProject = Promise.all([cp.getProject(), cp.getProject({}, { provider: home })]).then(([a, b]) => isDeepStrictEqual(a, b));
exports.sameCluster = Promise.all([cp.getK8sCluster(cluster), cp.getK8sCluster(cluster, { provider: home })]).then(([a, b]) => isDeepStrictEqual(a, b));
exports.nullsKept = cp.getProject({}, { provider: home }).then((p) => p.deletedAt === null && p.taskId === null);
`;

let home: RunningSimulator;
let other: RunningSimulator;
let t: TestStack;
let pathDir: string;
let outputs: Record<string, unknown>;
let preview: PreviewResult;
let otherReadsInPreview: number;
let resources: Array<{ type: string; urn: string; inputs?: Record<string, unknown> }>;

beforeAll(async () => {
  [home, other] = await Promise.all([startSimulator({ apiKey: newKey() }), startSimulator({ apiKey: newKey(), seed: otherSeed() })]);
  pathDir = pluginPathDir();
  t = await createTestStack({
    projectName: "lookup-options",
    writeProgram: (dir) => writeProgramDir(dir, "lookup-options", PROGRAM),
    envVars: { PATH: `${pathDir}${path.delimiter}${suiteProcessEnv().PATH}` },
    config: {
      "cloudplatform:baseUrl": { value: home.url },
      "cloudplatform:apiKey": { value: home.apiKey, secret: true },
      "lookup-options:homeUrl": { value: home.url },
      "lookup-options:homeKey": { value: home.apiKey, secret: true },
      "lookup-options:otherUrl": { value: other.url },
      "lookup-options:otherKey": { value: other.apiKey, secret: true },
    },
  });
  // A preview first, as users run one: the providers do not exist yet (their ids are unknown).
  preview = await t.stack.preview({ color: "never" });
  otherReadsInPreview = projectReads(other).length;
  const up = await t.stack.up({ color: "never" });
  outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
  resources = ((await t.stack.exportStack()).deployment as { resources: typeof resources }).resources;
});
afterAll(async () => {
  // The stack holds only providers and a component: no destroy needed before the simulators go.
  t?.discard();
  fs.rmSync(pathDir, { recursive: true, force: true });
  await Promise.all([home, other].map((s) => s?.close()));
});

const projectReads = (sim: RunningSimulator) => sim.requests().filter((r) => r.method === "GET" && r.path === "/cloud/v1/projects");

test("an explicit cloudplatform provider answers from its own account, in both forms and through a parent", () => {
  expect({ viaProvider: outputs["viaProvider"], viaProviderPromise: outputs["viaProviderPromise"], viaParent: outputs["viaParent"] }).toEqual({
    viaProvider: "other-account",
    viaProviderPromise: "other-account",
    viaParent: "other-account",
  });
  expect(projectReads(other).length).toBeGreaterThan(0);
  // Every request of the other account carried its own key: none was refused.
  expect(other.requests().filter((r) => r.status === 401)).toEqual([]);
});

test("a preview of the same program, before the explicit providers exist, asks the other account through them", () => {
  expect(preview.changeSummary).toMatchObject({ create: expect.any(Number) });
  expect(otherReadsInPreview).toBeGreaterThan(0);
});

test("a lookup without options runs in the program with the stack's config", () => {
  expect(outputs["inProgram"]).toBe("default");
  // No default provider without options: the plugin's default provider would be named `default`.
  expect(resources.filter((r) => r.type === "pulumi:providers:cloudplatform").map((r) => r.urn.split("::").pop())).not.toContain("default");
});

test("the answer through the plugin has the in-process lookup's shape, nulls included", () => {
  expect({ sameProject: outputs["sameProject"], sameCluster: outputs["sameCluster"], nullsKept: outputs["nullsKept"] }).toEqual({
    sameProject: true,
    sameCluster: true,
    nullsKept: true,
  });
});

test("version and pluginDownloadURL send the lookup to the engine's default provider of that version and URL", () => {
  expect(outputs["viaVersion"]).toBe(76);
  expect(outputs["viaDownloadUrl"]).toBe(7350925);
  const defaults = resources
    .filter((r) => r.type === "pulumi:providers:cloudplatform" && r.urn.includes("::default"))
    .map((r) => {
      const inputs = r.inputs as { version?: string; __internal?: { pluginDownloadURL?: string } };
      return { name: r.urn.split("::").pop(), version: inputs.version, pluginDownloadURL: inputs.__internal?.pluginDownloadURL };
    });
  expect(defaults).toEqual(
    expect.arrayContaining([
      { name: "default_0_1_0", version: "0.1.0", pluginDownloadURL: undefined },
      { name: "default_http_/127.0.0.1_9/cloudplatform-plugins", version: undefined, pluginDownloadURL: DOWNLOAD_URL.replace(/\/$/, "") },
    ]),
  );
  expect(defaults).toHaveLength(2);
});
