/**
 * Helpers of the native-plugin integration tests: the plugin on PATH, the CLI as a plain
 * command (the harness's `runPulumi`), and a source-based plugin directory.
 *
 * Why a PATH directory: the engine finds `pulumi-resource-cloudplatform` on PATH (ambient
 * plugins), which is how a user who installed the package's bin runs it; nothing is copied
 * into the plugin cache.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { pulumiRoot, REPO_ROOT } from "./harness";

export { runPulumi } from "./harness";

/** The plugin executable in the repository (runs the compiled dist/). */
export const PLUGIN_BIN = path.join(REPO_ROOT, "bin", "pulumi-resource-cloudplatform");

/** A temp dir holding only a `pulumi-resource-cloudplatform` link to the repo's bin. */
export function pluginPathDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-plugin-path-"));
  fs.symlinkSync(PLUGIN_BIN, path.join(dir, "pulumi-resource-cloudplatform"));
  return dir;
}

/**
 * A source-based plugin directory as an unpacked package would be: package.json (name,
 * version, main), the repo's PulumiPlugin.yaml, and `dist` linked to the build. It lives under
 * the repo (`.test-tmp/`) so Node resolves `@pulumi/pulumi` from the repo's node_modules, and
 * its package.json has no dependencies, so the `npm install` the CLI runs there touches nothing.
 */
export function sourcePluginDir(): string {
  const base = path.join(REPO_ROOT, ".test-tmp");
  fs.mkdirSync(base, { recursive: true });
  const dir = fs.mkdtempSync(path.join(base, "source-plugin-"));
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { name: string; version: string; main: string };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: pkg.name, version: pkg.version, main: pkg.main }, null, 2));
  fs.copyFileSync(path.join(REPO_ROOT, "PulumiPlugin.yaml"), path.join(dir, "PulumiPlugin.yaml"));
  fs.symlinkSync(path.join(REPO_ROOT, "dist"), path.join(dir, "dist"));
  return dir;
}

/** One `RESULT <json>` line of a program in another language. */
export interface ProgramStep {
  step: string;
  changes?: Record<string, number>;
  outputs?: Record<string, unknown>;
  progress?: Array<{ urn: string; ephemeral: boolean; message: string }>;
  deployment?: { resources: Array<Record<string, any>> };
  /** The simulator's whole state (`GET /__admin/state`) at that step. */
  state?: Record<string, unknown>;
}

/** What a program run reported. */
export interface ProgramRun {
  /** Steps by name, in the order printed. */
  steps: Map<string, ProgramStep>;
  /** Everything printed except the `state` step (a decrypted export, secrets shown). */
  output: string;
  /** The tail of the output when the program failed. */
  failure: string | undefined;
  /** Backend files that hold `apiKey` (or one of the extra secrets) in plain text. */
  backendLeaks: string[];
}

/**
 * Runs an Automation API program of another language (tests/integration/programs/*, or an
 * example's inline runner) against the simulator `sim` with the plugin on PATH, a fresh file
 * backend and PULUMI_HOME, and collects the `RESULT <json>` lines it prints. `env` adds
 * variables (e.g. an example's stack config); `extraSecrets` are keys besides `sim.apiKey` the
 * backend's files must not hold in plain text.
 */
export async function runLanguageProgram(
  executable: string,
  args: string[],
  sim: { url: string; apiKey: string },
  passphrase: string,
  env: Record<string, string> = {},
  extraSecrets: readonly string[] = [],
): Promise<ProgramRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-lang-"));
  const pathDir = pluginPathDir();
  for (const d of ["backend", "home"]) fs.mkdirSync(path.join(dir, d));
  try {
    const result = await new Promise<{ stdout: string; stderr: string; failed: boolean }>((resolve) =>
      execFile(
        executable,
        args,
        {
          cwd: dir,
          maxBuffer: 256 * 1024 * 1024,
          env: {
            ...process.env,
            ...env,
            PATH: `${pathDir}${path.delimiter}${process.env.PATH ?? ""}`,
            CLOUDPLATFORM_BASE_URL: sim.url,
            CLOUDPLATFORM_TEST_API_KEY: sim.apiKey,
            PULUMI_ROOT: pulumiRoot(),
            BACKEND_DIR: path.join(dir, "backend"),
            PULUMI_HOME: path.join(dir, "home"),
            PULUMI_CONFIG_PASSPHRASE: passphrase,
          },
        },
        (err, stdout, stderr) => resolve({ stdout, stderr, failed: err !== null }),
      ),
    );
    const all = result.stdout + result.stderr;
    const steps = new Map(
      result.stdout
        .split("\n")
        .filter((l) => l.startsWith("RESULT "))
        .map((l) => JSON.parse(l.slice("RESULT ".length)) as ProgramStep)
        .map((s) => [s.step, s]),
    );
    const backendDir = path.join(dir, "backend");
    const backendLeaks: string[] = [];
    const walk = (d: string): void => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const full = path.join(d, e.name);
        if (e.isDirectory()) walk(full);
        else if ([sim.apiKey, ...extraSecrets].some((k) => fs.readFileSync(full, "latin1").includes(k))) backendLeaks.push(full);
      }
    };
    walk(backendDir);
    return {
      steps,
      output: all
        .split("\n")
        .filter((l) => !(l.startsWith("RESULT ") && (JSON.parse(l.slice("RESULT ".length)) as ProgramStep).step === "state"))
        .join("\n"),
      failure: result.failed ? all.slice(-4000) : undefined,
      backendLeaks,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(pathDir, { recursive: true, force: true });
  }
}

/** The step `name` of a run, or an error that shows why the program stopped before it. */
export function stepOf(run: ProgramRun, name: string): ProgramStep {
  const s = run.steps.get(name);
  if (!s) throw new Error(`the program did not report step ${name}; ${run.failure ?? "it exited cleanly"}`);
  return s;
}
