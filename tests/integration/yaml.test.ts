/**
 * Pulumi YAML programs for real: the `pulumi` CLI with the YAML language host that `make
 * pulumi-cli` builds beside it (tools/yamlhost), the plugin on PATH as a user who installed the
 * package's bin has it, the simulator as the API. No SDK: the engine reads the plugin's schema.
 *
 * - examples/yaml-quickstart unchanged: up, a no-change `preview --refresh`, a no-change
 *   refresh, destroy, judged by the simulator's state (`GET /__admin/state`) and stack outputs.
 * - tests/integration/programs/yaml-user: what a YAML user writes besides the quickstart:
 *   lookups whose arguments are other lookups' outputs, an explicit provider with its own
 *   account (a second simulator; URL and a secret key from config), customTimeouts, the
 *   import option, a secret output; and a bad input, refused at preview, naming the field,
 *   with no write.
 *
 * Each program runs in a temp copy of its directory (stack files stay out of the repository),
 * with its own file backend and PULUMI_HOME. Needs dist/ built (the plugin runs it).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startSimulator, type RunningSimulator } from "../../simulator";
import type { StoredEvent } from "../../simulator/state";
import { newKey } from "../unit/api/helpers";
import { offlineEnv, REPO_ROOT } from "./harness";
import { pluginPathDir, runPulumi } from "./pluginSupport";
import { QUICKSTART_UP_OUTPUTS, quickstartEvents } from "./quickstartExpectations";

jest.setTimeout(300_000);

/** A YAML project copied to a temp dir, with its backend, PULUMI_HOME and the plugin on PATH. */
interface YamlProject {
  dir: string;
  env: Record<string, string>;
  /** Everything the CLI printed so far. */
  output: string[];
  /** `pulumi <args> --stack <stack>`; throws on a non-zero exit unless `allowFailure`. */
  cli(stack: string, args: string[], allowFailure?: boolean): Promise<{ code: number; text: string }>;
  /** Backend files holding one of `secrets` in plain text. */
  leaks(secrets: string[]): string[];
  cleanup(): void;
}

function yamlProject(programDir: string): YamlProject {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-yaml-"));
  const pathDir = pluginPathDir();
  for (const d of ["program", "backend", "home"]) fs.mkdirSync(path.join(dir, d));
  fs.copyFileSync(path.join(programDir, "Pulumi.yaml"), path.join(dir, "program", "Pulumi.yaml"));
  const env = {
    ...offlineEnv(path.join(dir, "home")),
    PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
    PATH: `${pathDir}${path.delimiter}${process.env.PATH ?? ""}`,
    // Short runs: the Go collector costs more than it saves (as in the harness's suiteProcessEnv).
    GOGC: "off",
    GOMEMLIMIT: "1GiB",
  };
  const output: string[] = [];
  return {
    dir,
    env,
    output,
    async cli(stack, args, allowFailure = false) {
      // Flags before a `--`, which ends them (a negative config value follows it).
      const flags = ["--stack", stack, "--non-interactive", "--color", "never"];
      const end = args.indexOf("--");
      const full = end < 0 ? [...args, ...flags] : [...args.slice(0, end), ...flags, ...args.slice(end)];
      const res = await runPulumi(full, path.join(dir, "program"), env);
      const text = res.stdout + res.stderr;
      output.push(text);
      if (res.code !== 0 && !allowFailure) throw new Error(`pulumi ${args.join(" ")} failed (${res.code}):\n${text}`);
      return { code: res.code, text };
    },
    leaks(secrets) {
      const found: string[] = [];
      const walk = (d: string): void => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const full = path.join(d, e.name);
          if (e.isDirectory()) walk(full);
          else if (secrets.some((k) => fs.readFileSync(full, "latin1").includes(k))) found.push(full);
        }
      };
      walk(path.join(dir, "backend"));
      return found;
    },
    cleanup() {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(pathDir, { recursive: true, force: true });
    },
  };
}

/** The simulator's state as its admin API serves it. */
async function adminState(sim: RunningSimulator): Promise<{ clusters: Array<{ name: string; version: string }>; storageEvents: StoredEvent[] }> {
  const res = await fetch(`${sim.url}/__admin/state`);
  expect(res.status).toBe(200);
  return (await res.json()) as { clusters: Array<{ name: string; version: string }>; storageEvents: StoredEvent[] };
}

/** Requests of `sim` from index `from` on that write (anything but GET). */
const writesSince = (sim: RunningSimulator, from: number) => sim.requests().slice(from).filter((r) => r.method !== "GET");

async function stackOutputs(p: YamlProject, stack: string, showSecrets = false): Promise<Record<string, unknown>> {
  const { text } = await p.cli(stack, ["stack", "output", "--json", ...(showSecrets ? ["--show-secrets"] : [])]);
  return JSON.parse(text.slice(text.indexOf("{"))) as Record<string, unknown>;
}

describe("examples/yaml-quickstart", () => {
  let sim: RunningSimulator;
  let p: YamlProject;

  beforeAll(async () => {
    sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
    p = yamlProject(path.join(REPO_ROOT, "examples/yaml-quickstart"));
    await p.cli("dev", ["stack", "init"]);
    await p.cli("dev", ["config", "set", "cloudplatform:baseUrl", sim.url]);
    await p.cli("dev", ["config", "set", "--secret", "cloudplatform:apiKey", sim.apiKey]);
    await p.cli("dev", ["config", "set", "storageName", "yaml-storage"]);
  });
  afterAll(async () => {
    p?.cleanup();
    await sim?.close();
  });

  test("up upgrades demo-cluster one permitted step and creates the two thresholds", async () => {
    await p.cli("dev", ["up", "--yes", "--skip-preview"]);
    const outputs = await stackOutputs(p, "dev");
    expect(outputs).toMatchObject(QUICKSTART_UP_OUTPUTS);
    const state = await adminState(sim);
    expect(state.clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.31.2");
    expect(sim.requests().filter((r) => r.method === "POST" && r.path.endsWith("/demo-cluster/upgrade"))).toHaveLength(1);
    const byUuid = new Map(state.storageEvents.map((e) => [e.uuid, e]));
    expect(state.storageEvents).toHaveLength(2);
    for (const want of quickstartEvents(outputs, "yaml-storage")) expect(byUuid.get(want.uuid)).toEqual(want);
  });

  test("a refreshing preview and a refresh find no changes, and write nothing", async () => {
    const before = sim.requests().length;
    await p.cli("dev", ["preview", "--refresh", "--expect-no-changes"]);
    await p.cli("dev", ["refresh", "--yes", "--expect-no-changes"]);
    expect(writesSince(sim, before)).toEqual([]);
  });

  test("destroy deletes both events and leaves the cluster upgraded; the key shows nowhere", async () => {
    await p.cli("dev", ["destroy", "--yes"]);
    const state = await adminState(sim);
    expect(state.storageEvents).toEqual([]);
    expect(sim.requests().filter((r) => r.method === "DELETE" && r.path.startsWith("/storage/"))).toHaveLength(2);
    expect(state.clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.31.2");
    expect(p.output.join("\n")).not.toContain(sim.apiKey);
    expect(p.leaks([sim.apiKey])).toEqual([]);
  });
});

describe("a YAML user's program (tests/integration/programs/yaml-user)", () => {
  /** The default provider's account: the lookups go here. */
  let sim: RunningSimulator;
  /** The explicit provider's account: the resources go here. */
  let account: RunningSimulator;
  let p: YamlProject;

  const configure = async (stack: string) => {
    await p.cli(stack, ["stack", "init"]);
    await p.cli(stack, ["config", "set", "cloudplatform:baseUrl", sim.url]);
    await p.cli(stack, ["config", "set", "--secret", "cloudplatform:apiKey", sim.apiKey]);
    await p.cli(stack, ["config", "set", "accountUrl", account.url]);
    await p.cli(stack, ["config", "set", "--secret", "accountKey", account.apiKey]);
  };

  beforeAll(async () => {
    [sim, account] = await Promise.all([startSimulator({ apiKey: newKey(), timeScale: 30 }), startSimulator({ apiKey: newKey(), timeScale: 30 })]);
    p = yamlProject(path.join(REPO_ROOT, "tests/integration/programs/yaml-user"));
    await configure("dev");
  });
  afterAll(async () => {
    p?.cleanup();
    await Promise.all([sim, account].map((s) => s?.close()));
  });

  test("up: chained lookups, the event in the explicit provider's account, the cluster imported", async () => {
    await p.cli("dev", ["up", "--yes", "--skip-preview"]);
    const outputs = await stackOutputs(p, "dev");
    expect(outputs).toEqual({
      projectId: 1,
      projectIds: [1, 2, 3],
      regionId: 76,
      k8sRegionIds: [76, 38],
      clusterVersion: "v1.30.4",
      upgradeVersions: ["v1.31.2"],
      spaceEvent: expect.stringMatching(/^[0-9a-f-]{36}$/),
      prodStatus: "Provisioned",
      accountKey: "[secret]",
    });
    expect((await stackOutputs(p, "dev", true))["accountKey"]).toBe(account.apiKey);

    // The explicit provider's account holds the event, made with its key; the default account
    // only answered lookups. Nothing was refused: each request carried its account's key.
    const events = (await adminState(account)).storageEvents;
    expect(events).toEqual([{ uuid: outputs["spaceEvent"], name: "reaching_used_space", storage_name: "yaml-user-storage", bytes: 536870912000 }]);
    expect(writesSince(account, 0).map((r) => `${r.method} ${r.path.split("/").slice(0, 2).join("/")}`)).toEqual(["POST /storage"]);
    expect(writesSince(sim, 0)).toEqual([]);
    for (const s of [sim, account]) expect(s.requests().filter((r) => r.status === 401 || r.status === 403)).toEqual([]);
    // The import wrote nothing: the cluster is where it was.
    expect((await adminState(account)).clusters.find((c) => c.name === "prod-cluster")?.version).toBe("v1.30.4");

    const { text } = await p.cli("dev", ["stack", "export"]);
    const resources = (JSON.parse(text.slice(text.indexOf("{"))) as { deployment: { resources: Array<Record<string, any>> } }).deployment.resources;
    const named = (n: string) => resources.find((r) => String(r["urn"]).endsWith(`::${n}`));
    expect(named("space")?.["customTimeouts"]).toEqual({ create: 120, update: 120, delete: 60 });
    expect(named("space")?.["provider"]).toContain("pulumi:providers:cloudplatform::account::");
    expect(named("prod")).toMatchObject({ id: "1/76/prod-cluster", type: "cloudplatform:index:K8sClusterUpgrade" });
    expect(p.leaks([sim.apiKey, account.apiKey])).toEqual([]);
  });

  test("a refreshing preview finds no changes", async () => {
    await p.cli("dev", ["preview", "--refresh", "--expect-no-changes"]);
  });

  test("a bad input fails at preview, naming the field, with no write to either account", async () => {
    const [simBefore, accountBefore] = [sim.requests().length, account.requests().length];
    await configure("bad");
    await p.cli("bad", ["config", "set", "spaceBytes", "--", "-5"]);
    const preview = await p.cli("bad", ["preview"], true);
    expect(preview.code).not.toBe(0);
    expect(preview.text).toMatch(/StorageEvent resource 'space': property bytes value \{-5\} has a problem: bytes must be a non-negative integer/);
    expect(writesSince(sim, simBefore)).toEqual([]);
    expect(writesSince(account, accountBefore)).toEqual([]);
    expect((await adminState(account)).storageEvents).toHaveLength(1);
  });

  test("destroy deletes the event and leaves the imported cluster; no key in any output", async () => {
    await p.cli("dev", ["destroy", "--yes"]);
    const state = await adminState(account);
    expect(state.storageEvents).toEqual([]);
    expect(state.clusters.find((c) => c.name === "prod-cluster")?.version).toBe("v1.30.4");
    expect(writesSince(account, 0).map((r) => r.method)).toEqual(["POST", "DELETE"]);
    const all = p.output.filter((t) => !t.includes('"accountKey"')).join("\n");
    expect(all).not.toContain(sim.apiKey);
    expect(all).not.toContain(account.apiKey);
  });
});
