/**
 * The committed SDKs (sdk/python, sdk/go, sdk/java) are exactly what `make sdks` generates from the
 * committed schema now: regenerates them into a temp dir and compares every file. Fails after a
 * schema change without `make sdks` (run it and commit the result).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "./harness";

jest.setTimeout(600_000);

/** Files under `dir` (relative paths) with their text; build leftovers are not part of an SDK. */
function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== "__pycache__" && e.name !== "build" && e.name !== "target" && !e.name.endsWith(".egg-info")) walk(full);
      } else out.set(path.relative(dir, full), fs.readFileSync(full, "utf8"));
    }
  };
  walk(dir);
  return out;
}

test("sdk/python, sdk/go and sdk/java are current with provider/plugin/schema.json (else run `make sdks`)", () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-sdks-"));
  try {
    execFileSync("bash", [path.join(REPO_ROOT, "tools/gen-sdks.sh"), out], { stdio: ["ignore", "ignore", "inherit"] });
    for (const language of ["python", "go", "java"]) {
      const generated = tree(path.join(out, language));
      const committed = tree(path.join(REPO_ROOT, "sdk", language));
      expect([...committed.keys()].sort()).toEqual([...generated.keys()].sort());
      for (const [file, text] of generated) expect({ file, text: committed.get(file) }).toEqual({ file, text });
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});
