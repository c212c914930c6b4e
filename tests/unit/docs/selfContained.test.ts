/**
 * No file of the repository points outside it: its docs and comments must stand alone for
 * whoever clones it or installs the package. The working notes this project started from
 * (a design note, Pulumi notes, the API spec and facts files in a sibling directory, the
 * machine's work paths) are not part of any checkout, so a mention of them is a dead end.
 *
 * Scans every file git tracks, plus new files not ignored (so a file fails before it is
 * committed). The patterns are assembled from parts so this file does not match itself.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

const REPO_ROOT = path.resolve(__dirname, "../../..");

/** What points outside the repository, each with why it is a dead end. */
const OUTSIDE = [
  { pattern: ["..", "/shared"].join(""), why: "a sibling directory of the checkout" },
  { pattern: ["shared", "/"].join(""), why: "the notes directory beside the checkout" },
  { pattern: ["design", ".md"].join(""), why: "a design note that is not in the repository" },
  { pattern: ["pulumi", "-notes"].join(""), why: "working notes that are not in the repository" },
  { pattern: ["/work", "/"].join(""), why: "a path on the machine the project was built on" },
  { pattern: ["api", "-facts"].join(""), why: "a facts file that is not in the repository" },
  { pattern: ["cloud-api", ".md"].join(""), why: "a spec file that is not in the repository" },
];

/** `file: line: the pattern (why)` for every mention of an outside path in `text`. */
export function outsideMentions(file: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, i) => {
    const lower = line.toLowerCase();
    for (const { pattern, why } of OUTSIDE) {
      if (lower.includes(pattern.toLowerCase())) found.push(`${file}:${i + 1}: ${pattern} (${why}): ${line.trim().slice(0, 120)}`);
    }
  });
  return found;
}

function repositoryFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO_ROOT, encoding: "utf8" });
  return [...new Set(out.split("\0").filter((f) => f !== ""))];
}

describe("no file points outside the repository", () => {
  it("finds each kind of outside path (the check can fail)", () => {
    for (const { pattern } of OUTSIDE) expect(outsideMentions("sample.md", `see ${pattern.toUpperCase()}x`)).toHaveLength(1);
    expect(outsideMentions("sample.md", "see docs/architecture.md and simulator/CONTRACT.md")).toEqual([]);
  });

  it("in any tracked or new file", () => {
    const files = repositoryFiles();
    expect(files).toContain("README.md");
    expect(files).toContain("tests/unit/docs/selfContained.test.ts");
    const mentions: string[] = [];
    for (const file of files) {
      const full = path.join(REPO_ROOT, file);
      if (!fs.existsSync(full) || !fs.statSync(full).isFile()) continue; // deleted in the working tree, or a link to a directory
      const bytes = fs.readFileSync(full);
      if (bytes.includes(0)) continue; // binary
      mentions.push(...outsideMentions(file, bytes.toString("utf8")));
    }
    expect(mentions).toEqual([]);
  });
});
