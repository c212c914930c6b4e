/**
 * Test harness for real Pulumi runs through the Automation API.
 *
 * Each stack gets its own temporary `file://` backend and PULUMI_HOME, the offline switches,
 * the CLI from the cache `make pulumi-cli` fills, and `projectSettings.main` = the repo root so
 * the dynamic-provider process (which runs in `main`) finds `@pulumi/pulumi` and this package.
 */
import { execFile, execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import {
  ConfigMap,
  Deployment,
  LocalWorkspace,
  PulumiCommand,
  PulumiFn,
  Stack,
} from "@pulumi/pulumi/automation";
import { pinnedNodeBin } from "./nodeRuntime";
import { REPO_ROOT } from "./repoRoot";
import { testSecretsProvider } from "./testKeeper";

export { REPO_ROOT } from "./repoRoot";

/** The passphrase of every test stack's secrets provider. */
export const TEST_PASSPHRASE = "cloudplatform-test-passphrase";

/** Directory whose `bin/` holds pulumi, the language host and the dynamic-provider launcher. */
export function pulumiRoot(): string {
  const fromMake = process.env.CLOUDPLATFORM_PULUMI_ROOT;
  if (fromMake) return fromMake;
  return execFileSync("bash", [path.join(REPO_ROOT, "tools/pulumi-cli.sh"), "--print-root"], {
    encoding: "utf8",
  }).trim();
}

/** Environment for every CLI call: no update check, no plugin downloads, a known passphrase. */
export function offlineEnv(pulumiHome: string): Record<string, string> {
  return {
    PULUMI_HOME: pulumiHome,
    PULUMI_CONFIG_PASSPHRASE: TEST_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_DISABLE_REGISTRY_RESOLVE: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "false",
  };
}

/**
 * The Node major of {@link suiteProcessEnv}: one our users run, pinned by tools/node-runtime.sh
 * and fetched by `make test-assets`.
 */
export const SUITE_NODE_MAJOR = 24;
let suiteNodeBin: string | undefined;

/**
 * How the suite runs Pulumi's own processes, cheaper than a user's defaults without changing what
 * they do; most of the suite's CPU goes to starting them, hundreds of times (bench does not use
 * this: it measures processes as users run them):
 * - the Node processes (program, dynamic provider, plugin) run on the pinned Node 24, the Node
 *   users run, with Node's compile cache (22 and later): loading `@pulumi/pulumi` in each new
 *   dynamic provider took 0.85 s of CPU on Node 20 and takes 0.5 s so. The compatibility suite
 *   still runs a whole lifecycle on this machine's Node (20 here).
 * - Go's collector is off below a memory limit in the CLI and the language host: each run is
 *   short and allocates far less, and collecting took about a quarter of a short run's CPU
 *   (`pulumi stack output`: 0.30 s with the collector, 0.22 s without).
 */
export function suiteProcessEnv(): Record<string, string> {
  suiteNodeBin ??= pinnedNodeBin(SUITE_NODE_MAJOR);
  return {
    PATH: `${suiteNodeBin}${path.delimiter}${process.env.PATH ?? ""}`,
    NODE_COMPILE_CACHE: path.join(os.tmpdir(), "cloudplatform-test-node-compile-cache"),
    GOGC: "off",
    GOMEMLIMIT: "1GiB",
  };
}

/** A stack under test plus what is needed to inspect and tear it down. */
export interface TestStack {
  stack: Stack;
  /** Temporary directory holding the backend, PULUMI_HOME and the program directory. */
  dir: string;
  /** The workspace's working directory (the written program, or an empty dir for inline programs). */
  programDir: string;
  backendUrl: string;
  /** Environment of every CLI call, also for a CLI spawned by hand (backend, home, offline switches). */
  envVars: Record<string, string>;
  /** Destroys what the stack still holds (even after a failed test) and deletes the temp dir (backend and all). */
  cleanup(): Promise<void>;
  /**
   * Deletes the temp dir without destroying: for a test whose simulator is reset or closed next,
   * where what the stack still holds no longer matters (a `pulumi destroy` saved).
   */
  discard(): void;
}

/** Options for {@link createTestStack}: an inline `program`, or `writeProgram`, or `main`. */
export interface TestStackOptions {
  /** An inline program; the project's `main` is the repo root (or `main`). */
  program?: PulumiFn;
  /**
   * Writes a program directory (see {@link writeProgramDir}) that the workspace runs the way a
   * user does; a `Pulumi.yaml` it writes is kept, otherwise one is made from `projectName`.
   */
  writeProgram?: (programDir: string) => void;
  /** The project's `main` when the program is neither inline nor written (an existing folder). */
  main?: string;
  projectName?: string;
  stackName?: string;
  config?: ConfigMap;
  /** Extra environment variables for the CLI and, through it, the dynamic provider. */
  envVars?: Record<string, string>;
  /** Run Pulumi's processes as users do, without {@link suiteProcessEnv} (bench measures them). */
  asUsersRun?: boolean;
  /**
   * Keep the passphrase secrets provider, a user's default on a `file://` backend, instead of
   * the loopback stand-in of testKeeper.ts (implied by `asUsersRun`).
   */
  passphraseSecrets?: boolean;
}

/**
 * Creates a fresh stack on a temporary `file://` backend with its own PULUMI_HOME: the one
 * place tests and bench make a stack.
 */
export async function createTestStack(options: TestStackOptions): Promise<TestStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-it-"));
  const backendDir = path.join(dir, "backend");
  const pulumiHome = path.join(dir, "home");
  const programDir = path.join(dir, "program");
  for (const d of [backendDir, pulumiHome, programDir]) fs.mkdirSync(d, { recursive: true });
  const backendUrl = `file://${backendDir}`;
  const projectName = options.projectName ?? "cloudplatform-test";
  const stackName = options.stackName ?? "test";
  const keeper = options.asUsersRun || options.passphraseSecrets ? undefined : await testSecretsProvider();
  const envVars = {
    ...offlineEnv(pulumiHome),
    ...(options.asUsersRun ? {} : suiteProcessEnv()),
    ...(keeper?.env ?? {}),
    PULUMI_BACKEND_URL: backendUrl,
    ...(options.envVars ?? {}),
  };
  const pulumiCommand = await pulumiCommandOnce();

  options.writeProgram?.(programDir);
  const ownProject = fs.existsSync(path.join(programDir, "Pulumi.yaml"));
  const main = options.writeProgram ? undefined : (options.main ?? REPO_ROOT);
  const workspace = {
    pulumiCommand,
    pulumiHome,
    envVars,
    ...(keeper ? { secretsProvider: keeper.url } : {}),
    ...(ownProject ? {} : { projectSettings: { name: projectName, runtime: "nodejs" as const, ...(main ? { main } : {}), backend: { url: backendUrl } } }),
  };
  // The backend is new, so the stack is too: `createStack` skips the `stack select` that would fail first.
  const stack = options.program
    ? await LocalWorkspace.createStack({ stackName, projectName, program: options.program }, { ...workspace, workDir: programDir })
    : await LocalWorkspace.createStack({ stackName, workDir: programDir }, workspace);
  if (options.config) await stack.setAllConfig(options.config);
  const cli = async (args: string[]) => {
    const run = await runPulumi([...args, "--stack", stackName], programDir, envVars);
    if (run.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (exit ${run.code}):\n${run.stderr}`);
    return run.stdout;
  };
  summariesWithoutSecrets(stack);
  outputsWithoutKeyUnlessSecret(stack, cli);

  const discard = () => fs.rmSync(dir, { recursive: true, force: true });
  const exportWithoutSecrets = async (): Promise<Deployment> => JSON.parse(await cli(["stack", "export"]));
  return { stack, dir, programDir, backendUrl, envVars, cleanup: teardown(stack, exportWithoutSecrets, discard), discard };
}

/**
 * `up`, `refresh` and `destroy` end by reading their summary from `stack history`, which the
 * Automation API runs with `--show-secrets` unless the call says `showSecrets: false`: one more
 * passphrase key derivation (about 0.3 s of CPU) per operation, for a summary no test reads a
 * secret from. So a test stack's operations default to `showSecrets: false`.
 */
function summariesWithoutSecrets(stack: Stack): void {
  const up = stack.up.bind(stack);
  const refresh = stack.refresh.bind(stack);
  const destroy = stack.destroy.bind(stack);
  stack.up = (opts) => up({ showSecrets: false, ...opts });
  stack.refresh = (opts) => refresh({ showSecrets: false, ...opts });
  stack.destroy = (opts) => destroy({ showSecrets: false, ...opts });
}

/**
 * After each `up` the Automation API reads the outputs twice, `stack output` and `stack output
 * --show-secrets`, to tell which are secret; the second derives the passphrase key (about 0.3 s
 * of CPU). Most test stacks have no secret output, and then the first answer is already the
 * whole one: the second run is only made when the first shows a `[secret]`. Same result as the
 * Automation API's.
 */
function outputsWithoutKeyUnlessSecret(stack: Stack, cli: (args: string[]) => Promise<string>): void {
  stack.outputs = async () => {
    const maskedText = await cli(["stack", "output", "--json"]);
    const masked = JSON.parse(maskedText) as Record<string, unknown>;
    const plain = maskedText.includes('"[secret]"') ? (JSON.parse(await cli(["stack", "output", "--json", "--show-secrets"])) as Record<string, unknown>) : masked;
    return Object.fromEntries(Object.entries(plain).map(([key, value]) => [key, { value, secret: masked[key] === "[secret]" }]));
  };
}

/** Runs `pulumi <args>` in `cwd`; resolves with stdout, stderr and the exit code (never rejects). */
export function runPulumi(args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const bin = path.join(pulumiRoot(), "bin");
  return new Promise((resolve) => {
    execFile(
      path.join(bin, "pulumi"),
      args,
      { cwd, env: { ...process.env, ...env, PATH: `${bin}${path.delimiter}${env.PATH ?? process.env.PATH ?? ""}` }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let pulumiCommand: Promise<PulumiCommand> | undefined;

/**
 * The CLI of {@link pulumiRoot}, checked (`pulumi version`) once per process rather than once
 * per stack: every stack of a test file uses the same binary.
 */
export function pulumiCommandOnce(): Promise<PulumiCommand> {
  pulumiCommand ??= PulumiCommand.get({ root: pulumiRoot() });
  return pulumiCommand;
}

/**
 * Writes a program directory: `package.json`, the repo's `node_modules` linked (so the program
 * can require `@pulumi/pulumi`; the built SDK it requires by the absolute path {@link SDK_PATH}),
 * `index.js` = `source`, and the `Pulumi.yaml` of a JavaScript project (`typescript: false`, as
 * Pulumi's docs tell JavaScript users; the language host then loads no TypeScript compiler).
 * Such a program runs in the language host's own process, as a user's does (a lookup failing
 * there fails the run instead of the test runner).
 */
export function writeProgramDir(programDir: string, projectName: string, source: string): void {
  fs.mkdirSync(programDir, { recursive: true });
  fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), `name: ${projectName}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n`);
  fs.writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: projectName, version: "0.0.0", main: "index.js" }));
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(programDir, "node_modules"), "dir");
  fs.writeFileSync(path.join(programDir, "index.js"), source);
}

/** The absolute path of the built SDK, for `require` in program directories. */
export const SDK_PATH = path.join(REPO_ROOT, "dist", "sdk", "nodejs");

/**
 * Teardown that always runs to the end: clears pending operations, destroys whatever resources
 * the state still holds (a test that destroyed already costs no second CLI run), then deletes
 * the temp dir, which holds the stack's backend and PULUMI_HOME (so no `stack rm` is needed).
 * It reads the state without `--show-secrets` (no key derivation); an import of that state keeps
 * its secrets as they were, encrypted.
 */
function teardown(stack: Stack, exportWithoutSecrets: () => Promise<Deployment>, discard: () => void): () => Promise<void> {
  return async () => {
    try {
      const state = await exportWithoutSecrets();
      await dropPendingOperations(stack, state);
      if (resourcesOf(state).size > 0) await stack.destroy({ color: "never" });
    } finally {
      discard();
    }
  };
}

/**
 * Removes pending operations left by a killed `pulumi up`, the way Pulumi's docs tell users to:
 * export the state, drop `pending_operations`, import it back.
 */
export async function clearPendingOperations(stack: Stack): Promise<number> {
  return dropPendingOperations(stack, await stack.exportStack());
}

async function dropPendingOperations(stack: Stack, state: Deployment): Promise<number> {
  const deployment = state.deployment as { pending_operations?: unknown[] } | undefined;
  const pending = deployment?.pending_operations?.length ?? 0;
  if (pending > 0 && deployment) {
    delete deployment.pending_operations;
    await stack.importStack(state);
  }
  return pending;
}

/** Resources of a stack's exported state, by logical name, without the stack and providers. */
export async function resourcesByName(stack: Stack): Promise<Map<string, Record<string, any>>> {
  return resourcesOf(await stack.exportStack());
}

function resourcesOf(state: Deployment): Map<string, Record<string, any>> {
  const resources = ((state.deployment as any)?.resources ?? []) as Array<Record<string, any>>;
  const byName = new Map<string, Record<string, any>>();
  for (const r of resources) {
    const urn = String(r.urn);
    if (r.type === "pulumi:pulumi:Stack" || r.type.startsWith("pulumi:providers:")) continue;
    byName.set(urn.slice(urn.lastIndexOf("::") + 2), r);
  }
  return byName;
}
