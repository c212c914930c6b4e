/**
 * Helpers of the native-plugin integration tests: the plugin on PATH, the CLI as a plain
 * command, and a source-based plugin directory.
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

/** The plugin executable in the repository (runs the compiled dist/). */
export const PLUGIN_BIN = path.join(REPO_ROOT, "bin", "pulumi-resource-cloudplatform");

/** A temp dir holding only a `pulumi-resource-cloudplatform` link to the repo's bin. */
export function pluginPathDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-plugin-path-"));
  fs.symlinkSync(PLUGIN_BIN, path.join(dir, "pulumi-resource-cloudplatform"));
  return dir;
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
