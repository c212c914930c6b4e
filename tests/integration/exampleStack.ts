/**
 * Runs a directory under examples/ as a real (non-inline) Pulumi program, the way a user runs
 * it: `pulumi up` in the project directory, the CLI's language host starting node and ts-node.
 * The example is copied to a temp dir that shares the repo's node_modules, so the repo stays
 * untouched and the package resolves exactly as an installed dependency would.
 */
import * as fs from "fs";
import * as path from "path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { createTestStack, REPO_ROOT, type TestStack } from "./harness";

/** Creates a stack for `examples/<name>` (its own Pulumi.yaml) on a temporary local backend. */
export function createExampleStack(
  name: string,
  options: { config?: ConfigMap; envVars?: Record<string, string>; stackName?: string } = {},
): Promise<TestStack> {
  return createTestStack({
    ...options,
    writeProgram: (programDir) => {
      fs.cpSync(path.join(REPO_ROOT, "examples", name), programDir, {
        recursive: true,
        filter: (src) => path.basename(src) !== "node_modules" && !/^Pulumi\..+\.yaml$/.test(path.basename(src)),
      });
      fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(programDir, "node_modules"));
    },
  });
}
