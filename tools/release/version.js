// @ts-check
/**
 * One version for everything a release publishes: package.json's `version` is the only one
 * anybody edits; this script writes it into every other copy (the plugin's own constant, the
 * plugin schema and the generated Python and Go SDKs), so none is ever repeated by hand.
 * `tests/unit/release/version.test.ts` fails when any copy differs from package.json.
 *
 * Why patch the copies instead of regenerating: the generators (`make schema`, `make sdks`) need
 * the TypeScript compiler and Go; the version fields are the only lines a version bump changes,
 * and the staleness tests of the schema and SDKs check that the patched files are still exactly
 * what the generators write.
 *
 * Usage: `node tools/release/version.js` (stamp every copy, list the files changed) or
 * `--check` (exit 1 naming each copy that differs). `make version` runs the first.
 */
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "../..");

/** The versions this script can carry into every language: semver, with an optional alpha/beta/rc number. */
const SUPPORTED = /^(\d+)\.(\d+)\.(\d+)(?:-(alpha|beta|rc)\.?(\d+))?$/;

/**
 * The PEP 440 form of a version, as Pulumi's Python generator writes it into pyproject.toml
 * (`1.2.0-beta.3` is `1.2.0b3`). Why only this subset: it is the part of semver whose PEP 440
 * form is unambiguous; anything else is refused before a file is touched.
 * @param {string} version
 */
function pep440(version) {
  const m = SUPPORTED.exec(version);
  if (!m) throw new Error(`package.json version "${version}" is not supported: use MAJOR.MINOR.PATCH or MAJOR.MINOR.PATCH-alpha.N, -beta.N or -rc.N`);
  const [, major, minor, patch, pre, number] = m;
  const tag = { alpha: "a", beta: "b", rc: "rc" }[pre ?? ""] ?? "";
  return `${major}.${minor}.${patch}${pre ? `${tag}${number}` : ""}`;
}

/**
 * Every copy of the version: the file, the line that holds it (the first capture group is the
 * version) and which form it takes. Why each exists:
 * - `provider/api/version.ts`: the plugin's GetPluginInfo answer and the User-Agent; compiled
 *   code must not read package.json from a path relative to `dist/`.
 * - the schema: what `pulumi package get-schema` shows and the SDKs are generated from.
 * - the Python SDK: the wheel's version and the plugin version a Python program asks for.
 * - the Go SDK: the plugin version a Go program asks for (its module version is the git tag).
 * - the install steps of the README, the registry page and the examples' READMEs: a reader
 *   copies them as they are, so they must name the archive `make plugin-archive` builds now.
 * @type {{ file: string, pattern: RegExp, form: "semver" | "pep440" }[]}
 */
const COPIES = [
  { file: "provider/api/version.ts", pattern: /^export const VERSION = "([^"]*)";$/gm, form: "semver" },
  { file: "provider/plugin/schema.json", pattern: /^ {2}"version": "([^"]*)",$/gm, form: "semver" },
  { file: "sdk/python/pyproject.toml", pattern: /^ {2}version = "([^"]*)"$/gm, form: "pep440" },
  { file: "sdk/python/pulumi_cloudplatform/pulumi-plugin.json", pattern: /^ {2}"version": "([^"]*)"$/gm, form: "semver" },
  { file: "sdk/go/cloudplatform/pulumi-plugin.json", pattern: /^ {2}"version": "([^"]*)"$/gm, form: "semver" },
  { file: "sdk/go/cloudplatform/internal/pulumiUtilities.go", pattern: /semver\.MustParse\("([^"]*)"\)/g, form: "semver" },
  ...["README.md", "docs/installation-configuration.md", "examples/python-quickstart/README.md", "examples/go-quickstart/README.md", "examples/yaml-quickstart/README.md"].flatMap((file) => [
    { file, pattern: /plugin install resource cloudplatform (\d\S*)/g, form: /** @type {const} */ ("semver") },
    { file, pattern: /pulumi-resource-cloudplatform-v(\S+?)-linux-amd64/g, form: /** @type {const} */ ("semver") },
  ]),
  { file: "examples/python-quickstart/requirements.txt", pattern: /pulumi-cloudplatform==(\S+)/g, form: "pep440" },
];

/**
 * The version in `<root>/package.json`, checked to be one every copy can carry.
 * @param {string} [root]
 */
function packageVersion(root = ROOT) {
  const version = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
  pep440(version);
  return version;
}

/**
 * Each copy with the version it should hold and the versions it holds now (one per occurrence).
 * A copy whose line is missing is an error: the generators changed their layout and this list
 * must follow, or a copy would silently stay unstamped.
 * @param {string} [root]
 */
function copies(root = ROOT) {
  const version = packageVersion(root);
  return COPIES.map((spec) => {
    const { file, pattern, form } = spec;
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const found = [...text.matchAll(pattern)].map((m) => /** @type {string} */ (m[1]));
    if (found.length === 0) throw new Error(`${file}: no version line matching ${pattern} (update COPIES in tools/release/version.js)`);
    return { file, spec, expected: form === "pep440" ? pep440(version) : version, found };
  });
}

/**
 * The copies that differ from package.json, as `file: found ... (package.json: expected)` lines.
 * @param {string} [root]
 */
function check(root = ROOT) {
  return copies(root)
    .filter((c) => c.found.some((v) => v !== c.expected))
    .map((c) => `${c.file}: ${[...new Set(c.found)].join(", ")} (package.json says ${c.expected})`);
}

/**
 * Writes package.json's version into every copy; returns the files it changed.
 * @param {string} [root]
 */
function stamp(root = ROOT) {
  const changed = [];
  for (const { file, spec, expected, found } of copies(root)) {
    if (found.every((v) => v === expected)) continue;
    const full = path.join(root, file);
    const text = fs.readFileSync(full, "utf8");
    // The match's first occurrence of the old version is its capture: each pattern starts before it.
    fs.writeFileSync(full, text.replace(spec.pattern, (line, old) => line.replace(old, expected)));
    if (!changed.includes(file)) changed.push(file);
  }
  return changed;
}

module.exports = { COPIES, pep440, packageVersion, copies, check, stamp };

if (require.main === module) {
  try {
    if (process.argv.includes("--check")) {
      const stale = check();
      if (stale.length) {
        process.stderr.write(`version copies differ from package.json (run \`make version\`):\n  ${stale.join("\n  ")}\n`);
        process.exit(1);
      }
      process.stdout.write(`every copy holds ${packageVersion()}\n`);
    } else {
      const changed = stamp();
      process.stdout.write(changed.length ? `stamped ${packageVersion()} into:\n  ${changed.join("\n  ")}\n` : `every copy already holds ${packageVersion()}\n`);
    }
  } catch (err) {
    process.stderr.write(`[version] error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
