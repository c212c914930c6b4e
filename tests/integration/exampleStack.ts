/**
 * Runs a directory under examples/ as a real (non-inline) Pulumi program, the way a user runs
 * it: `pulumi up` in the project directory, the CLI's language host starting node and ts-node.
 * The example is copied to a temp dir that shares the repo's node_modules, so the repo stays
 * untouched and the package resolves exactly as an installed dependency would.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ConfigMap, LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { REPO_ROOT, TestStack, offlineEnv, pulumiRoot, teardown } from "./harness";

/** Creates a stack for `examples/<name>` on a temporary local backend. */
export async function createExampleStack(
  name: string,
  options: { config?: ConfigMap; envVars?: Record<string, string>; stackName?: string } = {},
): Promise<TestStack & { projectDir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `cloudplatform-example-${name}-`));
  const projectDir = path.join(dir, name);
  const backendDir = path.join(dir, "backend");
  const pulumiHome = path.join(dir, "home");
  fs.cpSync(path.join(REPO_ROOT, "examples", name), projectDir, {
    recursive: true,
    filter: (src) => path.basename(src) !== "node_modules" && !/^Pulumi\..+\.yaml$/.test(path.basename(src)),
  });
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(projectDir, "node_modules"));
  fs.mkdirSync(backendDir);
  fs.mkdirSync(pulumiHome);

  const backendUrl = `file://${backendDir}`;
  const envVars = { ...offlineEnv(pulumiHome), PULUMI_BACKEND_URL: backendUrl, ...(options.envVars ?? {}) };
  const stackName = options.stackName ?? "test";
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName, workDir: projectDir },
    { pulumiCommand: await PulumiCommand.get({ root: pulumiRoot() }), pulumiHome, envVars },
  );
  if (options.config) await stack.setAllConfig(options.config);

  return { stack, dir, backendUrl, envVars, cleanup: teardown(stack, stackName, dir), projectDir };
}
