/**
 * docs/api.md (the lookup reference shipped in the package) must be what the generator makes
 * from the current TypeScript declarations: a changed argument, result field or TSDoc without
 * `make docs` fails here.
 */
import * as fs from "fs";
import * as path from "path";
import * as sdk from "../../../sdk/nodejs";
import { API_REFERENCE_PATH, renderApiReference } from "../../../scripts/apiReference";

const REPO_ROOT = path.resolve(__dirname, "../../..");

describe("docs/api.md", () => {
  const generated = renderApiReference(REPO_ROOT);

  it("is up to date with the declarations (run `make docs` when this fails)", () => {
    const committed = fs.readFileSync(path.join(REPO_ROOT, API_REFERENCE_PATH), "utf8");
    expect(committed).toBe(generated);
  });

  it("documents every lookup the package exports, with its Output form, arguments and result", () => {
    const lookups = Object.keys(sdk).filter((name) => /^get[A-Z]/.test(name) && !name.endsWith("Output"));
    expect(lookups.length).toBeGreaterThanOrEqual(15);
    for (const name of lookups) {
      const section = generated.split(`\n### ${name}\n`)[1]?.split("\n### ")[0];
      expect({ name, documented: section !== undefined }).toEqual({ name, documented: true });
      expect(section).toContain(`Output form: \`${name}Output\``);
      expect(section).toMatch(/Result \(`\w+`\):\n\n\| Field \| Type \| Meaning \|/);
    }
    // Every argument and field says what it means (its TSDoc).
    expect(generated.split("\n").filter((line) => /^\| `\w+` \|.*\|\s*\|$/.test(line))).toEqual([]);
    // Fields a user must otherwise look up in .d.ts files.
    for (const field of ["displayName", "taskType", "isDefault", "zoneExists", "taskId"]) expect(generated).toContain(`| \`${field}\` |`);
  });
});
