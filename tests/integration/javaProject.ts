/**
 * A Maven project of a Java Pulumi program (an example or tests/integration/programs/java-*)
 * run for real: the `pulumi` CLI of `make pulumi-cli` with the Java host beside it (built from
 * tools/javahost), `mvn` from PATH, the plugin on PATH, a fresh file backend and PULUMI_HOME.
 *
 * The project is copied to a temp dir (stack files and Maven's target/ stay out of the repo), with
 * a `.mvn/maven.config` that points Maven at the cache of tools/maven.sh and the project at this
 * checkout's Java SDK (scripts/java-sdk.sh installs it there under a version keyed by its
 * content): the Java host runs `mvn compile exec:java` itself, and Maven reads that file in
 * every run. Nothing else of the project changes.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { offlineEnv, REPO_ROOT } from "./harness";
import { pluginPathDir, runPulumi } from "./pluginSupport";

/** A copied Java project with its backend, PULUMI_HOME and the plugin on PATH. */
export interface JavaProject {
  dir: string;
  /** `pulumi <args> --stack <stack>`; throws on a non-zero exit unless `allowFailure`. */
  cli(stack: string, args: string[], allowFailure?: boolean): Promise<{ code: number; text: string }>;
  /** The stack's outputs (`pulumi stack output --json`). */
  outputs(stack: string): Promise<Record<string, unknown>>;
  cleanup(): void;
}

let sdkVersion: string | undefined;

/** The checkout's Java SDK installed into the Maven cache (seconds once `make test-assets` ran). */
function javaSdkVersion(): string {
  sdkVersion ??= execFileSync("bash", [path.join(REPO_ROOT, "scripts/java-sdk.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  return sdkVersion;
}

/** Copies the Maven project at `projectDir` (pom.xml, Pulumi.yaml, src/) and prepares it to run. */
export function javaProject(projectDir: string): JavaProject {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-java-"));
  const program = path.join(dir, "program");
  const pathDir = pluginPathDir();
  for (const d of ["backend", "home"]) fs.mkdirSync(path.join(dir, d));
  fs.cpSync(projectDir, program, { recursive: true, filter: (src) => !/(^|\/)(target|Pulumi\.[^/]+\.yaml)$/.test(src) || src.endsWith("Pulumi.yaml") });
  const m2 = execFileSync("bash", [path.join(REPO_ROOT, "tools/maven.sh"), "--print-repo"], { encoding: "utf8" }).trim();
  fs.mkdirSync(path.join(program, ".mvn"));
  fs.writeFileSync(path.join(program, ".mvn", "maven.config"), `-B -Dmaven.repo.local=${m2} -Dcloudplatform.version=${javaSdkVersion()}\n`);
  const env = {
    ...offlineEnv(path.join(dir, "home")),
    PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
    PATH: `${pathDir}${path.delimiter}${process.env.PATH ?? ""}`,
    GOGC: "off",
    GOMEMLIMIT: "1GiB",
  };
  const cli: JavaProject["cli"] = async (stack, args, allowFailure = false) => {
    // Flags before a `--`, which ends them (a negative config value follows it).
    const flags = ["--stack", stack, "--non-interactive", "--color", "never"];
    const end = args.indexOf("--");
    const full = end < 0 ? [...args, ...flags] : [...args.slice(0, end), ...flags, ...args.slice(end)];
    const res = await runPulumi(full, program, env);
    const text = res.stdout + res.stderr;
    if (res.code !== 0 && !allowFailure) throw new Error(`pulumi ${args.join(" ")} failed (${res.code}):\n${text}`);
    return { code: res.code, text };
  };
  return {
    dir: program,
    cli,
    async outputs(stack) {
      const { text } = await cli(stack, ["stack", "output", "--json"]);
      return JSON.parse(text.slice(text.indexOf("{"))) as Record<string, unknown>;
    },
    cleanup() {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(pathDir, { recursive: true, force: true });
    },
  };
}
