// @ts-check
/**
 * Checks that the Go SDK can be published by pushing one git tag, and prints that tag. A Go
 * module is released by tagging the repository: the module in `sdk/` (module path
 * `<repo>/sdk`) at version `v1.2.3` is the tag `sdk/v1.2.3`, and from v2 on the module path must
 * end in `/v2`. Why a check: a module path, a schema `importBasePath` or a local `replace` that
 * does not line up makes `go get` of the tag fail for users, long after the release.
 *
 * Usage: `node tools/release/goModule.js` prints the tag (exit 1 with the reasons when not ready).
 */
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "../..");

/**
 * The tag that publishes the module, or the reasons it cannot be published as it stands.
 * @param {{ version: string, importBasePath: string, packageDir: string, moduleDir: string, goMod: string }} go
 *   `packageDir`: the generated package's directory, `moduleDir`: its go.mod's directory (both
 *   relative to the repository root, `/`-separated); `goMod`: the go.mod text.
 * @returns {{ tag: string, modulePath: string, problems: string[] }}
 */
function goModuleTag({ version, importBasePath, packageDir, moduleDir, goMod }) {
  const problems = [];
  const modulePath = /^module\s+(\S+)/m.exec(goMod)?.[1] ?? "";
  if (!modulePath) problems.push(`${moduleDir}/go.mod has no module line`);
  const major = Number(version.split(".")[0]);
  if (!importBasePath.endsWith(`/${packageDir}`)) {
    problems.push(`the schema's language.go.importBasePath ${importBasePath} does not end in the package directory ${packageDir}`);
  }
  const repoPath = importBasePath.slice(0, -(packageDir.length + 1));
  const expected = `${repoPath}${moduleDir ? `/${moduleDir}` : ""}${major >= 2 ? `/v${major}` : ""}`;
  if (modulePath && modulePath !== expected) {
    problems.push(`${moduleDir}/go.mod declares module ${modulePath}; version ${version} in ${moduleDir || "the repository root"} needs ${expected}`);
  }
  for (const m of goMod.matchAll(/^\s*(?:replace\s+)?(\S+)(?:\s+\S+)?\s+=>\s+(\.{0,2}\/\S*)/gm)) {
    problems.push(`${moduleDir}/go.mod replaces ${m[1]} with the local path ${m[2]}, which users of the tag cannot resolve`);
  }
  return { tag: `${moduleDir ? `${moduleDir}/` : ""}v${version}`, modulePath, problems };
}

/**
 * The repository's Go SDK as it stands: the schema's import path, the generated package and the
 * go.mod that governs it (the nearest one above the package).
 * @param {string} [root]
 */
function repositoryGoModule(root = ROOT) {
  const schema = JSON.parse(fs.readFileSync(path.join(root, "provider/plugin/schema.json"), "utf8"));
  const importBasePath = /** @type {string} */ (schema.language?.go?.importBasePath ?? "");
  const name = importBasePath.split("/").pop() ?? "";
  const found = findPackageDir(root, name);
  let moduleDir = found;
  while (moduleDir && !fs.existsSync(path.join(root, moduleDir, "go.mod"))) moduleDir = path.posix.dirname(moduleDir) === "." ? "" : path.posix.dirname(moduleDir);
  if (!fs.existsSync(path.join(root, moduleDir, "go.mod"))) throw new Error(`no go.mod above ${found}`);
  const version = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
  return goModuleTag({ version, importBasePath, packageDir: found, moduleDir, goMod: fs.readFileSync(path.join(root, moduleDir, "go.mod"), "utf8") });
}

/**
 * Where the generated Go package (a directory named `name` holding `pulumi-plugin.json`) sits under sdk/.
 * @param {string} root
 * @param {string} name
 */
function findPackageDir(root, name) {
  for (const candidate of [`sdk/go/${name}`, `sdk/${name}`]) {
    if (fs.existsSync(path.join(root, candidate, "pulumi-plugin.json"))) return candidate;
  }
  throw new Error(`no generated Go package ${name} under sdk/ (run \`make sdks\`)`);
}

module.exports = { goModuleTag, repositoryGoModule };

if (require.main === module) {
  try {
    const { tag, modulePath, problems } = repositoryGoModule();
    if (problems.length) {
      process.stderr.write(`[go-module] not ready to tag:\n  ${problems.join("\n  ")}\n`);
      process.exit(1);
    }
    process.stdout.write(`${modulePath} ${tag}\n`);
  } catch (err) {
    process.stderr.write(`[go-module] error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
