/**
 * The repository's Markdown pages as the docs tests read them: which pages there are, their
 * relative links, and the anchors their headings make on GitHub. Shared by the link test, the
 * snippet test and the quoted-messages test, so each reads the manual the same way.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

export const REPO_ROOT = path.resolve(__dirname, "../../..");

/** The manual: the README and every page a user or contributor is sent to from it. */
export const MANUAL_ROOTS = ["README.md", "CONTRIBUTING.md", "RELEASING.md", "bench/README.md"];

/** Every Markdown file git tracks, plus new ones not ignored (so a new page is checked before it is committed). */
export function markdownFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.md"], { cwd: REPO_ROOT, encoding: "utf8" });
  return [...new Set(out.split("\0").filter((f) => f !== "" && fs.existsSync(path.join(REPO_ROOT, f))))].sort();
}

/** The pages of the manual: the roots and every Markdown page under docs/. */
export function manualPages(): string[] {
  return [...MANUAL_ROOTS, ...markdownFiles().filter((f) => f.startsWith("docs/"))];
}

export const readPage = (file: string): string => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");

/** `markdown` without its fenced code blocks (their `#` lines are no headings, their brackets no links). */
export function withoutCodeBlocks(markdown: string): string {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker) fence = marker[0];
    else if (fence !== undefined && marker?.[0] === fence) fence = undefined;
    else if (fence === undefined) kept.push(line);
  }
  return kept.join("\n");
}

/**
 * The anchor GitHub gives a heading: lower case, punctuation dropped (inline code and link
 * syntax included), each space a hyphen; a repeated heading gets `-1`, `-2`, ...
 */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text = ""] of withoutCodeBlocks(markdown).matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
    const plain = text.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = plain.toLowerCase().replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "").replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** One relative link of a page: the target as written, and the file and anchor it resolves to. */
export interface RelativeLink {
  target: string;
  /** Repository-relative path of the linked file or directory (the page itself for `#anchor`). */
  file: string;
  anchor?: string;
}

/** The relative links of `page` (outside code), resolved against its directory. External and `mailto:` links are left out. */
export function relativeLinks(page: string, markdown: string): RelativeLink[] {
  const prose = withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, "");
  const links: RelativeLink[] = [];
  for (const [, raw = ""] of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) continue;
    const [pathPart = "", anchor] = raw.split("#", 2);
    const file = pathPart === "" ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(pathPart)));
    links.push({ target: raw, file, ...(anchor !== undefined ? { anchor } : {}) });
  }
  return links;
}
