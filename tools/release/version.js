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

/** Where the Java SDK's sources and resources are, and its package's directory under both. */
const JAVA_SDK = "sdk/java/src/main";
const JAVA_PACKAGE = "io/github/pulumicloudplatform/cloudplatform";

/**
 * Every copy of the version: the file, the line that holds it (the first capture group is the
 * version) and which form it takes. Why each exists:
 * - `provider/api/version.ts`: the plugin's GetPluginInfo answer and the User-Agent; compiled
 *   code must not read package.json from a path relative to `dist/`.
 * - the schema: what `pulumi package get-schema` shows and the SDKs are generated from.
 * - the Python SDK: the wheel's version and the plugin version a Python program asks for.
 * - the Go SDK: the plugin version a Go program asks for (its module version is the git tag).
 * - the Java SDK's pom.xml: the jar's Maven version, which its build writes into version.txt and
 *   plugin.json (the plugin version a Java program asks for).
 * - the install steps of the README, the registry page and the examples' READMEs: a reader
 *   copies them as they are, so they must name the archive `make plugin-archive` builds now.
 * @type {{ file: string, pattern: RegExp, form: "semver" | "pep440" }[]}
 */
const COPIES = [
  { file: "provider/api/version.ts", pattern: /^export const VERSION = "([^"]*)";$/gm, form: "semver" },
  { file: "provider/plugin/schema.json", pattern: /^ {2}"version": "([^"]*)",$/gm, form: "semver" },
  { file: "sdk/python/pyproject.toml", pattern: /^ {2}version = "([^"]*)"$/gm, form: "pep440" },
  { file: "sdk/python/pulumi_cloudplatform/pulumi-plugin.json", pattern: /^ {2}"version": "([^"]*)",?$/gm, form: "semver" },
  { file: "sdk/go/cloudplatform/pulumi-plugin.json", pattern: /^ {2}"version": "([^"]*)",?$/gm, form: "semver" },
  { file: "sdk/go/cloudplatform/internal/pulumiUtilities.go", pattern: /semver\.MustParse\("([^"]*)"\)/g, form: "semver" },
  { file: "sdk/java/pom.xml", pattern: /^ {2}<version>([^<]*)<\/version>$/gm, form: "semver" },
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

/**
 * The plugin download URL (the schema's top-level `pluginDownloadURL`): where the engine fetches
 * `pulumi-resource-cloudplatform-v<version>-<os>-<arch>.tar.gz` when a program needs the plugin
 * and it is not installed. Set for a release with `PLUGIN_DOWNLOAD_URL=<url>` (see RELEASING.md);
 * unset in the committed repository, where every copy below holds none. Its copies, each as the
 * generators write it (`make schema`, `make sdks`), so the staleness tests still pass:
 * - the schema's `pluginDownloadURL` (after `publisher`), which the plugin serves;
 * - `server` in the Python and Go SDKs' `pulumi-plugin.json` (what a language host reports);
 * - the Python SDK's `get_plugin_download_url()` and the Go SDK's default resource and invoke
 *   options (`pulumi.PluginDownloadURL`), sent with every registration and invoke.
 * Each entry reads the URL a file holds (undefined: none) and writes one (undefined: removes it).
 * @type {{ file: string, read(text: string): string | undefined, write(text: string, url: string | undefined): string }[]}
 */
const URL_COPIES = [
  {
    file: "provider/plugin/schema.json",
    read: (text) => JSON.parse(text).pluginDownloadURL,
    write: (text, url) => `${JSON.stringify(withDownloadURL(JSON.parse(text), "pluginDownloadURL", url, "publisher"), null, 2)}\n`,
  },
  ...["sdk/python/pulumi_cloudplatform/pulumi-plugin.json", "sdk/go/cloudplatform/pulumi-plugin.json", `${JAVA_SDK}/resources/${JAVA_PACKAGE}/plugin.json`].map((file) => ({
    file,
    /** @param {string} text */
    read: (text) => JSON.parse(text).server,
    /** @param {string} text @param {string | undefined} url */
    write: (text, url) => `${JSON.stringify(withDownloadURL(JSON.parse(text), "server", url), null, 2)}\n`,
  })),
  {
    file: "sdk/python/pulumi_cloudplatform/_utilities.py",
    read: (text) => {
      const m = /^def get_plugin_download_url\(\):\n\treturn (None|"(.*)")$/m.exec(text);
      if (!m) throw new Error("sdk/python/pulumi_cloudplatform/_utilities.py: no get_plugin_download_url() (update URL_COPIES in tools/release/version.js)");
      return m[1] === "None" ? undefined : JSON.parse(m[1]);
    },
    write: (text, url) => text.replace(/^(def get_plugin_download_url\(\):\n\treturn )(?:None|".*")$/m, (_, head) => `${head}${url === undefined ? "None" : JSON.stringify(url)}`),
  },
  {
    file: "sdk/go/cloudplatform/internal/pulumiUtilities.go",
    read: (text) => {
      const found = [...text.matchAll(/^\tdefaults := \[\]pulumi\.(?:Resource|Invoke)Option\{\}\n(?:\tdefaults = append\(defaults, pulumi\.PluginDownloadURL\((".*")\)\))?\n/gm)];
      if (found.length !== 2) throw new Error("sdk/go/cloudplatform/internal/pulumiUtilities.go: not 2 default option lists (update URL_COPIES in tools/release/version.js)");
      const urls = new Set(found.map((m) => (m[1] === undefined ? undefined : JSON.parse(m[1]))));
      if (urls.size !== 1) throw new Error("sdk/go/cloudplatform/internal/pulumiUtilities.go: its resource and invoke defaults name different download URLs");
      return [...urls][0];
    },
    write: (text, url) =>
      text.replace(
        /^(\tdefaults := \[\]pulumi\.(?:Resource|Invoke)Option\{\}\n)(?:\tdefaults = append\(defaults, pulumi\.PluginDownloadURL\(".*"\)\))?\n/gm,
        (_, head) => `${head}${url === undefined ? "" : `\tdefaults = append(defaults, pulumi.PluginDownloadURL(${JSON.stringify(url)}))`}\n`,
      ),
  },
  // The Java SDK's resources: the default options of each resource class (invokes take none).
  ...["K8sClusterUpgrade", "Provider", "StorageEvent"].map((name) => {
    const file = `${JAVA_SDK}/java/${JAVA_PACKAGE}/${name}.java`;
    const options = /^( {12}\.version\(Utilities\.getVersion\(\)\)\n)(?: {12}\.pluginDownloadURL\((".*")\)\n)?/m;
    return {
      file,
      /** @param {string} text */
      read: (text) => {
        const m = options.exec(text);
        if (!m) throw new Error(`${file}: no default resource options (update URL_COPIES in tools/release/version.js)`);
        return m[2] === undefined ? undefined : JSON.parse(m[2]);
      },
      /** @param {string} text @param {string | undefined} url */
      write: (text, url) => text.replace(options, (_, head) => `${head}${url === undefined ? "" : `            .pluginDownloadURL(${JSON.stringify(url)})\n`}`),
    };
  }),
];

/**
 * `obj` with `key` set to `url` (placed after `after`, or last) or removed when `url` is undefined.
 * @param {Record<string, unknown>} obj @param {string} key @param {string | undefined} url @param {string} [after]
 */
function withDownloadURL(obj, key, url, after) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === key) continue;
    out[k] = v;
    if (k === after && url !== undefined) out[key] = url;
  }
  if (url !== undefined && !(key in out)) out[key] = url;
  return out;
}

/**
 * The URL `PLUGIN_DOWNLOAD_URL` asks for: undefined when the variable is unset (keep what the
 * schema holds), "" when set empty (remove it). The engine appends the archive's name to an
 * http(s) URL; `github://` and `gitlab://` name a repository's releases (Pulumi's own schemes).
 * @param {NodeJS.ProcessEnv} [env]
 */
function requestedDownloadURL(env = process.env) {
  const url = env.PLUGIN_DOWNLOAD_URL;
  if (url === undefined || url === "") return url;
  if (!/^(https?|github|gitlab):\/\/\S+$/.test(url)) throw new Error(`PLUGIN_DOWNLOAD_URL "${url}" is not an http://, https://, github:// or gitlab:// URL`);
  return url;
}

/**
 * The download URL every copy holds: the schema's (undefined: none). Copies that differ are
 * errors of `downloadURLCheck`.
 * @param {string} [root]
 */
function schemaDownloadURL(root = ROOT) {
  return /** @type {string | undefined} */ (JSON.parse(fs.readFileSync(path.join(root, "provider/plugin/schema.json"), "utf8")).pluginDownloadURL);
}

/**
 * The URL copies that differ from `expected` (undefined: none; left out: the schema's URL), as lines.
 * @param {string} [root]
 * @param {[(string | undefined)?]} expectedArg
 */
function downloadURLCheck(root = ROOT, ...expectedArg) {
  const expected = expectedArg.length ? expectedArg[0] : schemaDownloadURL(root);
  return URL_COPIES.flatMap(({ file, read }) => {
    const found = read(fs.readFileSync(path.join(root, file), "utf8"));
    return found === expected ? [] : [`${file}: plugin download URL ${found ?? "(none)"} (expected ${expected ?? "(none)"})`];
  });
}

/**
 * Writes `url` (undefined or "": none) into every copy; returns the files it changed.
 * @param {string | undefined} url
 * @param {string} [root]
 */
function stampDownloadURL(url, root = ROOT) {
  const want = url === "" ? undefined : url;
  const changed = [];
  for (const { file, write } of URL_COPIES) {
    const full = path.join(root, file);
    const text = fs.readFileSync(full, "utf8");
    const next = write(text, want);
    if (next !== text) {
      fs.writeFileSync(full, next);
      changed.push(file);
    }
  }
  return changed;
}

module.exports = { COPIES, URL_COPIES, pep440, packageVersion, copies, check, stamp, requestedDownloadURL, schemaDownloadURL, downloadURLCheck, stampDownloadURL };

if (require.main === module) {
  try {
    const requested = requestedDownloadURL();
    if (process.argv.includes("--check")) {
      // With PLUGIN_DOWNLOAD_URL set, every copy must hold it; unset, every copy the schema's.
      const stale = [...check(), ...(requested === undefined ? downloadURLCheck() : downloadURLCheck(ROOT, requested || undefined))];
      if (stale.length) {
        process.stderr.write(`version or plugin download URL copies differ (run \`make version\`, with PLUGIN_DOWNLOAD_URL=<url> for a URL):\n  ${stale.join("\n  ")}\n`);
        process.exit(1);
      }
      process.stdout.write(`every copy holds ${packageVersion()}, plugin download URL ${schemaDownloadURL() ?? "(none)"}\n`);
    } else {
      const changed = stamp();
      process.stdout.write(changed.length ? `stamped ${packageVersion()} into:\n  ${changed.join("\n  ")}\n` : `every copy already holds ${packageVersion()}\n`);
      // Unset: the schema's URL (none in the committed repository) is carried into any SDK copy that differs.
      const url = requested === undefined ? schemaDownloadURL() : requested;
      const urlChanged = stampDownloadURL(url);
      process.stdout.write(urlChanged.length ? `stamped plugin download URL ${url || "(none)"} into:\n  ${urlChanged.join("\n  ")}\n` : `every copy already holds plugin download URL ${url || "(none)"}\n`);
    }
  } catch (err) {
    process.stderr.write(`[version] error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
