/**
 * One version: every copy of the version (plugin constant, schema, Python and Go SDKs, the
 * install steps of the docs and examples) equals
 * package.json's, and `tools/release/version.js` carries a new package.json version into all of
 * them (checked on a temp copy of those files, so the repository is not touched).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

interface Copy {
  file: string;
  expected: string;
  found: string[];
}
interface VersionTool {
  COPIES: { file: string }[];
  pep440(version: string): string;
  copies(root?: string): Copy[];
  check(root?: string): string[];
  stamp(root?: string): string[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tool = require("../../../tools/release/version.js") as VersionTool;

const REPO_ROOT = path.resolve(__dirname, "../../..");

/** A temp directory holding package.json and every version copy, as in the repository. */
function tempCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-version-"));
  for (const file of ["package.json", ...tool.COPIES.map((c) => c.file)]) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, file), path.join(dir, file));
  }
  return dir;
}

function setPackageVersion(dir: string, version: string): void {
  const file = path.join(dir, "package.json");
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, "utf8")), version }, null, 2));
}

test("every copy of the version equals package.json's (else run `make version`)", () => {
  expect(tool.check(REPO_ROOT)).toEqual([]);
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
  const copies = tool.copies(REPO_ROOT);
  expect(copies.map((c) => c.file)).toEqual(
    expect.arrayContaining(["provider/api/version.ts", "provider/plugin/schema.json", "sdk/python/pyproject.toml", "sdk/go/cloudplatform/pulumi-plugin.json"]),
  );
  for (const c of copies) {
    expect([version, tool.pep440(version)]).toContain(c.expected);
    expect({ file: c.file, found: c.found }).toEqual({ file: c.file, found: c.found.map(() => c.expected) });
  }
});

test("a new package.json version reaches every copy, in PEP 440 form for Python", () => {
  const dir = tempCopy();
  try {
    setPackageVersion(dir, "1.2.3-beta.4");
    expect(tool.check(dir)).toHaveLength(tool.COPIES.length);
    expect(tool.stamp(dir).sort()).toEqual([...new Set(tool.COPIES.map((c) => c.file))].sort());
    expect(tool.check(dir)).toEqual([]);
    const read = (file: string) => fs.readFileSync(path.join(dir, file), "utf8");
    expect(read("sdk/python/pyproject.toml")).toContain('  version = "1.2.3b4"\n');
    expect(JSON.parse(read("provider/plugin/schema.json")).version).toBe("1.2.3-beta.4");
    expect(JSON.parse(read("sdk/go/cloudplatform/pulumi-plugin.json")).version).toBe("1.2.3-beta.4");
    expect(read("provider/api/version.ts")).toContain('export const VERSION = "1.2.3-beta.4";');
    expect(read("sdk/go/cloudplatform/internal/pulumiUtilities.go").match(/semver\.MustParse\("1\.2\.3-beta\.4"\)/g)).toHaveLength(2);
    // The install steps readers copy name the archive of this version.
    expect(read("docs/installation-configuration.md")).toContain(
      "pulumi plugin install resource cloudplatform 1.2.3-beta.4 --file dist-plugin/pulumi-resource-cloudplatform-v1.2.3-beta.4-linux-amd64.tar.gz",
    );
    expect(read("examples/python-quickstart/requirements.txt")).toContain("pulumi-cloudplatform==1.2.3b4");
    // Only the version lines change: stamping back restores the original files byte for byte.
    setPackageVersion(dir, JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version);
    tool.stamp(dir);
    for (const c of tool.COPIES) expect({ file: c.file, text: read(c.file) }).toEqual({ file: c.file, text: fs.readFileSync(path.join(REPO_ROOT, c.file), "utf8") });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("one copy edited by hand is named by the check", () => {
  const dir = tempCopy();
  try {
    const file = path.join(dir, "sdk/python/pulumi_cloudplatform/pulumi-plugin.json");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/"version": "[^"]*"/, '"version": "9.9.9"'));
    expect(tool.check(dir)).toEqual([expect.stringMatching(/^sdk\/python\/pulumi_cloudplatform\/pulumi-plugin\.json: 9\.9\.9 \(package\.json says /)]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("PEP 440 forms, and versions no language can carry the same way are refused before any write", () => {
  expect(tool.pep440("0.1.0")).toBe("0.1.0");
  expect(tool.pep440("1.0.0-alpha.2")).toBe("1.0.0a2");
  expect(tool.pep440("1.0.0-rc1")).toBe("1.0.0rc1");
  for (const bad of ["1.0", "v1.0.0", "1.0.0-dev.1", "1.0.0+build.5"]) expect(() => tool.pep440(bad)).toThrow(/MAJOR\.MINOR\.PATCH/);
  const dir = tempCopy();
  try {
    setPackageVersion(dir, "2.0.0-preview");
    const before = fs.readFileSync(path.join(dir, "provider/api/version.ts"), "utf8");
    expect(() => tool.stamp(dir)).toThrow(/"2\.0\.0-preview" is not supported/);
    expect(fs.readFileSync(path.join(dir, "provider/api/version.ts"), "utf8")).toBe(before);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

interface DownloadURLTool {
  URL_COPIES: { file: string }[];
  downloadURLCheck(root?: string, ...expected: [(string | undefined)?]): string[];
  stampDownloadURL(url: string | undefined, root?: string): string[];
  schemaDownloadURL(root?: string): string | undefined;
  requestedDownloadURL(env?: Record<string, string | undefined>): string | undefined;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const urlTool = require("../../../tools/release/version.js") as DownloadURLTool;

test("the committed repository names no plugin download URL, in any copy", () => {
  expect(urlTool.schemaDownloadURL(REPO_ROOT)).toBeUndefined();
  expect(urlTool.downloadURLCheck(REPO_ROOT, undefined)).toEqual([]);
});

test("PLUGIN_DOWNLOAD_URL reaches the schema and the Python, Go and Java SDKs, and removing it restores every file exactly", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-url-"));
  try {
    for (const { file } of urlTool.URL_COPIES) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.copyFileSync(path.join(REPO_ROOT, file), path.join(dir, file));
    }
    const url = "https://example.com/releases/download/v1/";
    expect(urlTool.stampDownloadURL(url, dir)).toHaveLength(urlTool.URL_COPIES.length);
    expect(urlTool.downloadURLCheck(dir)).toEqual([]);
    expect(urlTool.downloadURLCheck(dir, url)).toEqual([]);
    expect(urlTool.downloadURLCheck(dir, undefined)).toHaveLength(urlTool.URL_COPIES.length);
    const read = (file: string) => fs.readFileSync(path.join(dir, file), "utf8");
    const schema = JSON.parse(read("provider/plugin/schema.json")) as Record<string, unknown>;
    expect(Object.keys(schema).indexOf("pluginDownloadURL")).toBe(Object.keys(schema).indexOf("publisher") + 1);
    expect(schema.pluginDownloadURL).toBe(url);
    expect(JSON.parse(read("sdk/python/pulumi_cloudplatform/pulumi-plugin.json"))).toMatchObject({ resource: true, name: "cloudplatform", server: url });
    expect(JSON.parse(read("sdk/go/cloudplatform/pulumi-plugin.json"))).toMatchObject({ resource: true, name: "cloudplatform", server: url });
    expect(read("sdk/python/pulumi_cloudplatform/_utilities.py")).toContain(`def get_plugin_download_url():\n\treturn "${url}"`);
    expect(read("sdk/go/cloudplatform/internal/pulumiUtilities.go").split(`pulumi.PluginDownloadURL("${url}")`)).toHaveLength(3);
    const java = "sdk/java/src/main/java/io/github/pulumicloudplatform/cloudplatform";
    expect(JSON.parse(read("sdk/java/src/main/resources/io/github/pulumicloudplatform/cloudplatform/plugin.json"))).toMatchObject({ resource: true, name: "cloudplatform", server: url });
    for (const name of ["K8sClusterUpgrade", "Provider", "StorageEvent"]) {
      expect(read(`${java}/${name}.java`)).toContain(`            .version(Utilities.getVersion())\n            .pluginDownloadURL("${url}")\n            .build();`);
    }
    expect(urlTool.stampDownloadURL(url, dir)).toEqual([]);
    expect(urlTool.stampDownloadURL(undefined, dir)).toHaveLength(urlTool.URL_COPIES.length);
    for (const { file } of urlTool.URL_COPIES) expect({ file, text: read(file) }).toEqual({ file, text: fs.readFileSync(path.join(REPO_ROOT, file), "utf8") });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("PLUGIN_DOWNLOAD_URL must be a URL the engine can download from", () => {
  expect(urlTool.requestedDownloadURL({})).toBeUndefined();
  expect(urlTool.requestedDownloadURL({ PLUGIN_DOWNLOAD_URL: "" })).toBe("");
  expect(urlTool.requestedDownloadURL({ PLUGIN_DOWNLOAD_URL: "github://api.github.com/o/r" })).toBe("github://api.github.com/o/r");
  expect(() => urlTool.requestedDownloadURL({ PLUGIN_DOWNLOAD_URL: "example.com/x" })).toThrow(/not an http/);
});
