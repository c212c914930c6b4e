/**
 * The native plugin through the real CLI against the simulator: the schema served both ways
 * users install it (the bin, and PulumiPlugin.yaml through the Node.js language host's
 * RunPlugin); `pulumi import` of a StorageEvent made through the API and of a cluster, a
 * no-change preview and refresh, an update through the imported resources with the upgrade's
 * progress reported on the resource's URN; no API key in state, output or errors.
 *
 * Programs declare the resources with raw `pulumi.CustomResource` and the schema tokens, as a
 * generated SDK would. Needs `npx tsc -p tsconfig.json` first (the plugin runs dist/).
 */
import { execFileSync, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { createClient } from "../../provider/api";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { createTestStack, REPO_ROOT, resourcesByName, type TestStack } from "./harness";
import { PLUGIN_BIN, pluginPathDir, runPulumi, sourcePluginDir } from "./pluginSupport";
import { keyLeaksInState } from "./stateSecrets";

jest.setTimeout(600_000);

const SE = "cloudplatform:index:StorageEvent";
const K8S = "cloudplatform:index:K8sClusterUpgrade";
const SCHEMA = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "provider/plugin/schema.json"), "utf8")) as unknown;

let sim: RunningSimulator;
let pathDir: string;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
  pathDir = pluginPathDir();
});
afterAll(async () => {
  await sim.close();
  fs.rmSync(pathDir, { recursive: true, force: true });
});

describe("installing the plugin", () => {
  test("`pulumi package get-schema` serves the schema from the bin and from the PulumiPlugin.yaml directory", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-schema-"));
    // Every Node process the CLI starts prints a warning on stderr, as an old dependency or a
    // NODE_OPTIONS flag can make it do: the schema must be served all the same.
    const warn = path.join(home, "warn.js");
    fs.writeFileSync(warn, 'process.emitWarning("a warning from NODE_OPTIONS");\n');
    const env = { PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", NODE_OPTIONS: `--require ${warn}` };
    const sourceDir = sourcePluginDir();
    try {
      // Judged by the exit code and the schema, not by an empty stderr: a Node warning (an old
      // dependency, a NODE_OPTIONS flag) or a CLI notice there says nothing about the plugin.
      const fromBin = await runPulumi(["package", "get-schema", PLUGIN_BIN], home, env);
      expect(fromBin.code).toBe(0);
      expect(JSON.parse(fromBin.stdout)).toEqual(SCHEMA);
      const fromSource = await runPulumi(["package", "get-schema", sourceDir], home, env);
      expect(fromSource.code).toBe(0);
      expect(JSON.parse(fromSource.stdout)).toEqual(SCHEMA);
      // The engine keeps a plugin's stderr to itself; run the bin as it does to see that the
      // warning is really printed, and that the port still comes first on stdout.
      const bare = spawnSync(PLUGIN_BIN, ["127.0.0.1:1"], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 30_000 });
      expect(bare.stdout.split("\n")[0]).toMatch(/^\d+$/);
      expect(bare.stderr).toContain("a warning from NODE_OPTIONS");
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(sourceDir, { recursive: true, force: true });
    }
  });
});

test("`pulumi plugin install resource cloudplatform <version> --file <archive>` installs a plugin that serves the schema", async () => {
  const archive = execFileSync("bash", [path.join(REPO_ROOT, "tools/plugin-archive.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-install-"));
  // No plugin on PATH: only the installed one can answer.
  const env = { PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", PATH: path.dirname(process.execPath) + path.delimiter + "/usr/bin:/bin" };
  try {
    const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
    const install = await runPulumi(["plugin", "install", "resource", "cloudplatform", version, "--file", archive], home, env);
    expect(install.code).toBe(0);
    const schema = await runPulumi(["package", "get-schema", "cloudplatform"], home, env);
    expect(schema.code).toBe(0);
    expect(JSON.parse(schema.stdout)).toEqual(SCHEMA);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

/** A resource of the plugin by its schema token, as a generated SDK's class registers it. */
class PluginResource extends pulumi.CustomResource {
  constructor(token: string, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    super(token, name, props, opts);
  }
}

/** What the program declares, changed between runs. */
interface Declared {
  event?: Record<string, unknown>;
  cluster?: Record<string, unknown>;
}

describe("import, no-change preview, update through the imported resources", () => {
  let t: TestStack;
  let declared: Declared = {};
  const cliOutput: string[] = [];

  beforeAll(async () => {
    t = await createTestStack({
      projectName: "plugin-it",
      program: async () => {
        if (declared.event) new PluginResource(SE, "media", { ...declared.event, uuid: undefined });
        if (declared.cluster) new PluginResource(K8S, "prod", { ...declared.cluster, status: undefined });
      },
      config: { "cloudplatform:baseUrl": { value: sim.url }, "cloudplatform:apiKey": { value: sim.apiKey, secret: true } },
      envVars: { PATH: `${pathDir}${path.delimiter}${process.env.PATH ?? ""}` },
    });
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  async function cli(args: string[]): Promise<string> {
    const res = await runPulumi([...args, "--stack", "test", "--non-interactive", "--color", "never"], t.stack.workspace.workDir, t.envVars);
    cliOutput.push(res.stdout, res.stderr);
    if (res.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${res.code}):\n${res.stdout}\n${res.stderr}`);
    return res.stdout;
  }

  test("imports an event made through the API by uuid and a cluster by <projectId>/<regionId>/<clusterName>", async () => {
    const api = createClient({ baseUrl: sim.url, apiKey: sim.apiKey });
    const made = await api.storage.notifications.create({ name: "reaching_used_space", storageName: "media", bytes: 1000 });
    const uuid = String(made.uuid);
    const before = sim.requests().length;

    await cli(["import", SE, "media", uuid, "--yes", "--generate-code=false", "--protect=false"]);
    await cli(["import", K8S, "prod", "1/76/prod-cluster", "--yes", "--generate-code=false", "--protect=false"]);

    expect(sim.requests().slice(before).filter((r) => r.method !== "GET")).toEqual([]);
    const state = await resourcesByName(t.stack);
    expect(state.get("media")).toMatchObject({ id: uuid, type: SE, inputs: { name: "reaching_used_space", storageName: "media", bytes: 1000 } });
    expect(state.get("media")?.outputs).toMatchObject({ uuid });
    expect(state.get("prod")).toMatchObject({ id: "1/76/prod-cluster", type: K8S, inputs: { version: "v1.30.4", allowMultiStep: false, timeoutMinutes: 60 } });
    for (const r of state.values()) expect(Object.keys(r.outputs ?? {})).not.toContain("__provider");
  });

  test("a program declaring what was imported previews and refreshes with no changes", async () => {
    declared = {
      event: { name: "reaching_used_space", storageName: "media", bytes: 1000 },
      cluster: { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.30.4" },
    };
    const preview = await t.stack.preview({ expectNoChanges: true, color: "never" });
    expect(preview.changeSummary).toEqual({ same: 3 });
    await t.stack.refresh({ expectNoChanges: true, color: "never" });
  });

  test("an update through the imported resources changes the limit in place and upgrades, with progress on the resource's URN", async () => {
    declared = {
      event: { name: "reaching_used_space", storageName: "media", bytes: 2000 },
      cluster: { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2" },
    };
    const before = sim.requests().length;
    const events: EngineEvent[] = [];
    const up = await t.stack.up({ color: "never", onEvent: (e) => events.push(e) });
    cliOutput.push(up.stdout, up.stderr);
    expect(up.summary.resourceChanges).toEqual({ same: 1, update: 2 });

    const writes = sim.requests().slice(before).filter((r) => r.method !== "GET");
    // The upgrade's quota check (a POST that changes nothing), the upgrade, the limit's update.
    expect(writes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      "POST /cloud/v2/k8s/clusters/1/76/pools/check_limits",
      "POST /cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade",
      "PUT /storage/notifications/v1/event",
    ]);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ storage_name: "media", bytes: 2000 })]);
    expect(sim.state().clusters.find((c) => c.name === "prod-cluster")?.version).toBe("v1.31.2");

    const prodUrn = (await resourcesByName(t.stack)).get("prod")?.urn as string;
    const onProd = events.flatMap((e) => (e.diagnosticEvent?.urn === prodUrn ? [e.diagnosticEvent] : []));
    expect(onProd.some((d) => /prod-cluster/.test(d.message) && d.ephemeral)).toBe(true);
    expect(onProd.some((d) => /v1\.31\.2/.test(d.message) && !d.ephemeral)).toBe(true);
    // The dynamic path prints progress on the stack's row; here no progress line lands anywhere but on `prod`.
    const elsewhere = events.flatMap((e) => {
      const d = e.diagnosticEvent;
      return d && (d.severity as string) !== "debug" && d.urn !== prodUrn && /prod-cluster/.test(d.message) ? [d] : [];
    });
    expect(elsewhere).toEqual([]);

    const again = await t.stack.preview({ expectNoChanges: true, color: "never" });
    expect(again.changeSummary).toEqual({ same: 3 });
  });

  test("bad input fails preview naming the field, and the key is nowhere in state, output or errors", async () => {
    declared = { ...declared, event: { name: "reaching_the_moon", storageName: "media", bytes: 2000 } };
    const failed = await t.stack.preview({ color: "never" }).then(
      () => "",
      (err: Error) => err.message,
    );
    expect(failed).toMatch(/name/);
    expect(failed).toMatch(/reaching_used_space/);
    expect(failed).not.toContain(sim.apiKey);
    expect(cliOutput.join("\n")).not.toContain(sim.apiKey);
    expect(await keyLeaksInState(t.stack, t.backendUrl, sim.apiKey)).toEqual([]);

    declared = {};
    await t.stack.destroy({ color: "never" });
    expect(sim.state().storageEvents).toEqual([]);
    expect(sim.state().clusters.find((c) => c.name === "prod-cluster")?.version).toBe("v1.31.2");
  });
});
