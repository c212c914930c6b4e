/**
 * Two accounts in one TypeScript program, written as a user writes it with any Pulumi package:
 * two `cloud.Provider`s (two simulators, each with its own key, refusing any other), a
 * StorageEvent and a lookup under each (one through a parent's `providers`), a
 * K8sClusterUpgrade under one, and a StorageEvent without a provider in the stack's own account
 * (a third simulator). `up`, an update (new limits, an upgrade), a second preview, `destroy`:
 * each write lands on its own account with its own key, the explicitly provided resources are
 * the plugin's (`cloudplatform:index:*`, no `__provider`), the other stays a dynamic resource,
 * and no key reaches state, output or the backend's files. The plugin is on PATH, as installed.
 */
import * as fs from "fs";
import * as path from "path";
import type { PreviewResult, UpResult } from "@pulumi/pulumi/automation";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { createTestStack, REPO_ROOT, SDK_PATH, suiteProcessEnv, writeProgramDir, type TestStack } from "./harness";
import { pluginPathDir } from "./pluginSupport";
import { backendFiles, withoutSecretValues } from "./stateSecrets";

jest.setTimeout(900_000);

const PROJECT = "two-accounts";

const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const cloud = require(${JSON.stringify(SDK_PATH)});

const config = new pulumi.Config();
const bytes = config.requireNumber("bytes");
const staging = new cloud.Provider("staging", { baseUrl: config.require("stagingUrl"), apiKey: config.requireSecret("stagingKey") });
const production = new cloud.Provider("production", { baseUrl: config.require("productionUrl"), apiKey: config.requireSecret("productionKey") });
const team = new pulumi.ComponentResource("test:index:Team", "production-team", {}, { providers: { cloudplatform: production } });
const space = (name, opts) => new cloud.StorageEvent(name, { name: "reaching_used_space", storageName: "media", bytes }, opts);

const stagingSpace = space("staging-space", { provider: staging });
const productionSpace = space("production-space", { parent: team });
const ownSpace = space("own-space");
const upgrade = new cloud.K8sClusterUpgrade("staging-upgrade",
  { projectId: 1, regionId: 76, clusterName: "demo-cluster", version: config.require("version") },
  { provider: staging });

exports.uuids = { staging: stagingSpace.uuid, production: productionSpace.uuid, own: ownSpace.uuid };
exports.projects = {
  staging: cloud.getProjectOutput({}, { provider: staging }).name,
  production: cloud.getProjectOutput({}, { parent: team }).name,
  own: cloud.getProjectOutput().name,
};
exports.upgrade = { version: upgrade.version, path: upgrade.upgradePath };
`;

/** The default seed with its default project renamed `name`, so each account's lookups tell it. */
function seedNamed(name: string): object {
  const seed = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "simulator/seed/default.json"), "utf8")) as { projects: { name: string; is_default: boolean }[] };
  for (const p of seed.projects) if (p.is_default) p.name = name;
  return seed;
}

let own: RunningSimulator;
let staging: RunningSimulator;
let production: RunningSimulator;
let t: TestStack;
let pathDir: string;
let created: UpResult;
let updated: UpResult;
let second: PreviewResult;
let resources: Array<Record<string, any>>;
let backendText: string;

beforeAll(async () => {
  const start = (name: string) => startSimulator({ apiKey: newKey(), timeScale: 20, seed: seedNamed(name) });
  [own, staging, production] = await Promise.all([start("own-account"), start("staging-account"), start("production-account")]);
  pathDir = pluginPathDir();
  t = await createTestStack({
    projectName: PROJECT,
    writeProgram: (dir) => writeProgramDir(dir, PROJECT, PROGRAM),
    envVars: { PATH: `${pathDir}${path.delimiter}${suiteProcessEnv().PATH}` },
    config: {
      "cloudplatform:baseUrl": { value: own.url },
      "cloudplatform:apiKey": { value: own.apiKey, secret: true },
      [`${PROJECT}:stagingUrl`]: { value: staging.url },
      [`${PROJECT}:stagingKey`]: { value: staging.apiKey, secret: true },
      [`${PROJECT}:productionUrl`]: { value: production.url },
      [`${PROJECT}:productionKey`]: { value: production.apiKey, secret: true },
      [`${PROJECT}:bytes`]: { value: "1000" },
      [`${PROJECT}:version`]: { value: "v1.30.4" },
    },
  });
  created = await t.stack.up({ color: "never" });
  await t.stack.setAllConfig({ [`${PROJECT}:bytes`]: { value: "2000" }, [`${PROJECT}:version`]: { value: "v1.31.2" } });
  updated = await t.stack.up({ color: "never" });
  second = await t.stack.preview({ color: "never" });
  resources = ((await t.stack.exportStack()).deployment as { resources: Array<Record<string, any>> }).resources;
  backendText = backendFiles(t.backendUrl)
    .map((f) => f.text)
    .join("\n");
  await t.stack.destroy({ color: "never" });
});
afterAll(async () => {
  await t?.cleanup();
  if (pathDir) fs.rmSync(pathDir, { recursive: true, force: true });
  await Promise.all([own, staging, production].map((s) => s?.close()));
});

/** The writes `sim` received, as `METHOD area status` (area: storage or k8s), sorted (resources run concurrently). */
const writes = (sim: RunningSimulator) =>
  sim
    .requests()
    .filter((r) => r.method !== "GET" && !r.path.startsWith("/__admin") && !r.path.endsWith("/check_limits"))
    .map((r) => `${r.method} ${r.path.startsWith("/storage/") ? "storage" : r.path.includes("/k8s/") ? "k8s" : r.path} ${r.status}`)
    .sort();

const byName = (name: string) => resources.find((r) => String(r.urn).endsWith(`::${name}`));

test("up, update, a second preview and destroy ran as planned", () => {
  expect(created.summary.resourceChanges).toMatchObject({ create: 8 });
  expect(updated.summary.resourceChanges).toMatchObject({ update: 4 });
  expect(second.changeSummary).toEqual({ same: 8 });
});

test("each account received its own resources' writes only, each with its own key", () => {
  expect(writes(staging)).toEqual(["DELETE storage 204", "POST k8s 200", "POST storage 200", "PUT storage 204"]);
  expect(writes(production)).toEqual(["DELETE storage 204", "POST storage 200", "PUT storage 204"]);
  expect(writes(own)).toEqual(["DELETE storage 204", "POST storage 200", "PUT storage 204"]);
  for (const sim of [own, staging, production]) expect(sim.requests().filter((r) => r.status === 401 || r.status === 403)).toEqual([]);
  expect(staging.state().clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.31.2");
  for (const sim of [own, production]) expect(sim.state().clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.30.4");
  for (const sim of [own, staging, production]) expect(sim.state().storageEvents).toEqual([]);
});

test("the same names and outputs as without a provider; lookups read their own account", () => {
  const outputs = Object.fromEntries(Object.entries(updated.outputs).map(([k, v]) => [k, v.value]));
  const uuids = outputs["uuids"] as Record<string, string>;
  expect(new Set(Object.values(uuids)).size).toBe(3);
  expect(outputs["projects"]).toEqual({ staging: "staging-account", production: "production-account", own: "own-account" });
  expect(outputs["upgrade"]).toEqual({ version: "v1.31.2", path: ["v1.31.2"] });
  for (const [name, account] of [["staging-space", "staging"], ["production-space", "production"], ["own-space", "own"]] as const) {
    expect(byName(name)?.id).toBe(uuids[account]);
    expect(byName(name)?.outputs).toMatchObject({ name: "reaching_used_space", storageName: "media", bytes: 2000, uuid: uuids[account] });
  }
});

test("explicitly provided resources are the plugin's, the other one stays a dynamic resource", () => {
  const typeAndProvider = (name: string) => {
    const r = byName(name);
    return { type: r?.type, provider: String(r?.provider).split("::")[3], hasProviderCode: "__provider" in (r?.inputs ?? {}) };
  };
  expect(typeAndProvider("staging-space")).toEqual({ type: "cloudplatform:index:StorageEvent", provider: "staging", hasProviderCode: false });
  expect(typeAndProvider("production-space")).toEqual({ type: "cloudplatform:index:StorageEvent", provider: "production", hasProviderCode: false });
  expect(typeAndProvider("staging-upgrade")).toEqual({ type: "cloudplatform:index:K8sClusterUpgrade", provider: "staging", hasProviderCode: false });
  expect(typeAndProvider("own-space")).toEqual({ type: "pulumi-nodejs:dynamic/cloudplatform:StorageEvent", provider: "default", hasProviderCode: true });
});

test("no key in state, output or the backend's files", () => {
  const state = JSON.stringify(withoutSecretValues(resources));
  const printed = [created.stdout, created.stderr, updated.stdout, updated.stderr, second.stdout, second.stderr].join("\n");
  for (const key of [own.apiKey, staging.apiKey, production.apiKey]) {
    expect(state).not.toContain(key);
    expect(printed).not.toContain(key);
    expect(backendText).not.toContain(key);
  }
  for (const name of ["staging", "production"]) expect(byName(name)?.inputs?.apiKey).toEqual(expect.objectContaining({ "4dabf18193072939515e22adb298388d": expect.any(String) }));
});
