/**
 * The manual holds together: every page of docs/ (and CONTRIBUTING.md, RELEASING.md,
 * bench/README.md) is one click from the README, and no relative link of any Markdown file in
 * the repository is dead: its file exists and so does its `#anchor`. A page that is written
 * but linked from nowhere, or a link to a page or heading that was renamed, fails here.
 */
import * as fs from "fs";
import * as path from "path";
import { anchorsOf, manualPages, markdownFiles, readPage, relativeLinks, REPO_ROOT } from "./markdown";

/** The problems of the relative links of `page` (`page: target (why)`), none when all resolve. */
function deadLinks(page: string, markdown: string, anchorsOfFile: (file: string) => Set<string> | undefined): string[] {
  const dead: string[] = [];
  for (const link of relativeLinks(page, markdown)) {
    const full = path.join(REPO_ROOT, link.file);
    if (link.file.startsWith("..") || !fs.existsSync(full)) dead.push(`${page}: ${link.target} (no such file)`);
    else if (link.anchor !== undefined && link.anchor !== "") {
      const anchors = anchorsOfFile(link.file);
      if (!anchors) dead.push(`${page}: ${link.target} (an anchor into a file that is not Markdown)`);
      else if (!anchors.has(link.anchor)) dead.push(`${page}: ${link.target} (no heading makes #${link.anchor})`);
    }
  }
  return dead;
}

const anchorsOfRepoFile = (file: string): Set<string> | undefined => (file.endsWith(".md") ? anchorsOf(readPage(file)) : undefined);

describe("the link checks can fail", () => {
  it("makes GitHub's anchors", () => {
    const anchors = anchorsOf("# Ctrl-C, `customTimeouts` and replacements\n## `pulumi package add`\n## Notes\n## Notes\n```sh\n# not a heading\n```\n");
    expect([...anchors]).toEqual(["ctrl-c-customtimeouts-and-replacements", "pulumi-package-add", "notes", "notes-1"]);
  });

  it("reports a missing file, a missing anchor and a link out of the repository; ignores code and external links", () => {
    const page = [
      "[gone](docs/nowhere.md) [bad anchor](README.md#no-such-heading) [out](../elsewhere.md)",
      "[here](#a-heading) [external](https://example.com/x.md) `[code](nowhere.md)`",
      "## A heading",
      "```md",
      "[in a block](nowhere.md)",
      "```",
    ].join("\n");
    expect(deadLinks("README.md", page, (file) => (file === "README.md" ? anchorsOf(page) : anchorsOfRepoFile(file)))).toEqual([
      "README.md: docs/nowhere.md (no such file)",
      "README.md: README.md#no-such-heading (no heading makes #no-such-heading)",
      "README.md: ../elsewhere.md (no such file)",
    ]);
  });
});

describe("the manual", () => {
  const readmeLinks = new Set(relativeLinks("README.md", readPage("README.md")).map((l) => l.file));

  it.each(manualPages().filter((p) => p !== "README.md"))("%s is linked from the README", (page) => {
    expect(readmeLinks.has(page)).toBe(true);
  });

  it("links the drift guide the README points to", () => {
    expect(readmeLinks.has("docs/guides/drift-in-ci.md")).toBe(true);
  });

  it("has no dead relative link in any Markdown file of the repository", () => {
    const files = markdownFiles();
    expect(files).toEqual(expect.arrayContaining(["README.md", "CONTRIBUTING.md", "docs/architecture.md", "examples/quickstart/README.md"]));
    expect(files.flatMap((file) => deadLinks(file, readPage(file), anchorsOfRepoFile))).toEqual([]);
  });
});
