// @ts-check
/**
 * The plugin archives for `pulumi plugin install resource cloudplatform <version> --file <archive>`,
 * one per platform Pulumi publishes plugins for: `pulumi-resource-cloudplatform-v<version>-<os>-<arch>.tar.gz`
 * on linux, darwin and windows, amd64 and arm64.
 *
 * Why one staged tree for all six: the plugin is JavaScript run by the user's Node.js, and none of
 * its production dependencies is native, so the archives differ only in the launcher at their
 * root (the file the engine starts): a POSIX `sh` script on linux and darwin, a `.cmd` on windows
 * (the engine looks for `<name>.exe` or `<name>.cmd` there). Archives with the same launcher are
 * the same bytes under the name the engine looks for.
 *
 * Usage: `node tools/release/pluginArchives.js <npm tarball> <out dir> [<os>-<arch> ...]`
 * (all targets when none is named); prints one archive path a line.
 */
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const PLUGIN = "pulumi-resource-cloudplatform";

/** Where the launcher finds the plugin's entry point, relative to the archive root. */
const PLUGIN_MAIN = ["node_modules", "pulumi-cloudplatform", "dist", "provider", "plugin", "main.js"];

/** Every platform a release publishes an archive for. */
const TARGETS = ["linux", "darwin", "windows"].flatMap((osName) => ["amd64", "arm64"].map((arch) => ({ os: osName, arch })));

/**
 * The archive's file name, the one `pulumi plugin install` and the plugin registry expect.
 * @param {string} version package.json's version, without a leading `v`
 * @param {string} osName linux, darwin or windows
 * @param {string} arch amd64 or arm64
 */
function archiveName(version, osName, arch) {
  if (!TARGETS.some((t) => t.os === osName && t.arch === arch)) {
    throw new Error(`no plugin archive for ${osName}-${arch}: targets are ${TARGETS.map((t) => `${t.os}-${t.arch}`).join(", ")}`);
  }
  return `${PLUGIN}-v${version}-${osName}-${arch}.tar.gz`;
}

/** The POSIX launcher (linux, darwin). Follows symlinks without `readlink -f`, which macOS before 12.3 lacks. */
const SH_LAUNCHER = `#!/bin/sh
# The cloudplatform resource plugin, as installed from its archive: Node.js (on PATH) runs the
# package in node_modules beside this file; the engine passes its address as the argument.
self=$0
while [ -h "$self" ]; do
  link=$(readlink "$self")
  case $link in /*) self=$link ;; *) self=$(dirname "$self")/$link ;; esac
done
exec node "$(dirname "$self")/${PLUGIN_MAIN.join("/")}" "$@"
`;

/** The Windows launcher; `%~dp0` is this file's directory with a trailing backslash. CRLF, as cmd.exe expects. */
const CMD_LAUNCHER = [
  "@echo off",
  "rem The cloudplatform resource plugin, as installed from its archive: Node.js (on PATH) runs",
  "rem the package in node_modules beside this file; the engine passes its address as the argument.",
  `node "%~dp0${PLUGIN_MAIN.join("\\")}" %*`,
  "",
].join("\r\n");

/**
 * The launcher file at the archive root for an OS: its name and text.
 * @param {string} osName
 */
function launcherFor(osName) {
  return osName === "windows" ? { name: `${PLUGIN}.cmd`, text: CMD_LAUNCHER } : { name: PLUGIN, text: SH_LAUNCHER };
}

/**
 * Installs the packed package with its production dependencies into `stage/node_modules`, the
 * tree every archive holds. Needs npm's cache or registry for the dependencies.
 * @param {string} tarball the `npm pack` output
 * @param {string} stage an empty directory
 */
function stagePackage(tarball, stage) {
  fs.writeFileSync(path.join(stage, "package.json"), '{"name":"cloudplatform-plugin","private":true}\n');
  // No bin links: the plugin needs none, and symlinks in an archive fail to extract on Windows without privileges.
  execFileSync("npm", ["install", "--omit=dev", "--no-bin-links", "--no-audit", "--no-fund", "--no-package-lock", "--silent", path.resolve(tarball)], { cwd: stage, stdio: ["ignore", "ignore", "inherit"] });
  fs.rmSync(path.join(stage, "package.json"));
  if (!fs.existsSync(path.join(stage, ...PLUGIN_MAIN))) throw new Error(`${tarball} has no ${PLUGIN_MAIN.slice(2).join("/")}: build first (make build)`);
  const links = symlinksUnder(stage);
  if (links.length) throw new Error(`the staged plugin holds symlinks, which Windows cannot extract: ${links.slice(0, 5).join(", ")}`);
}

/**
 * Symlinks under a directory (relative paths).
 * @param {string} dir
 * @returns {string[]}
 */
function symlinksUnder(dir, base = dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isSymbolicLink()) return [path.relative(base, full)];
    return e.isDirectory() ? symlinksUnder(full, base) : [];
  });
}

/**
 * Builds the archives for `targets` from one npm tarball into `outDir`; returns their paths.
 * @param {{ tarball: string, version: string, outDir: string, targets?: { os: string, arch: string }[] }} options
 */
function buildArchives({ tarball, version, outDir, targets = TARGETS }) {
  for (const t of targets) archiveName(version, t.os, t.arch); // an unknown target fails before the slow part
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-archives-"));
  try {
    const stage = path.join(work, "stage");
    fs.mkdirSync(stage);
    stagePackage(tarball, stage);
    fs.mkdirSync(outDir, { recursive: true });
    /** @type {Map<string, string>} one archive per launcher; the other targets with that launcher get a copy */
    const built = new Map();
    return targets.map(({ os: osName, arch }) => {
      const out = path.join(outDir, archiveName(version, osName, arch));
      const launcher = launcherFor(osName);
      const first = built.get(launcher.name);
      if (first) {
        fs.copyFileSync(first, out);
        return out;
      }
      const launcherDir = path.join(work, `launcher-${osName}`);
      fs.mkdirSync(launcherDir);
      fs.writeFileSync(path.join(launcherDir, launcher.name), launcher.text, { mode: 0o755 });
      execFileSync("tar", ["-czf", out, "-C", launcherDir, launcher.name, "-C", stage, "node_modules"], { stdio: ["ignore", "ignore", "inherit"] });
      built.set(launcher.name, out);
      return out;
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The host's target (`uname` names mapped to Pulumi's), for `make plugin-archive`. */
function hostTarget() {
  const osName = process.platform === "win32" ? "windows" : process.platform;
  const arch = { x64: "amd64", arm64: "arm64" }[/** @type {string} */ (process.arch)] ?? process.arch;
  return { os: osName, arch };
}

module.exports = { TARGETS, PLUGIN_MAIN, SH_LAUNCHER, CMD_LAUNCHER, archiveName, launcherFor, buildArchives, hostTarget };

if (require.main === module) {
  const [tarball, outDir, ...named] = process.argv.slice(2);
  if (!tarball || !outDir) {
    process.stderr.write("usage: node tools/release/pluginArchives.js <npm tarball> <out dir> [<os>-<arch>|host ...]\n");
    process.exit(2);
  }
  try {
    const version = /^pulumi-cloudplatform-(.+)\.tgz$/.exec(path.basename(tarball))?.[1];
    if (!version) throw new Error(`${tarball}: expected the \`npm pack\` output pulumi-cloudplatform-<version>.tgz`);
    const targets = named.length ? named.map((n) => (n === "host" ? hostTarget() : { os: n.split("-")[0] ?? "", arch: n.split("-")[1] ?? "" })) : TARGETS;
    for (const archive of buildArchives({ tarball, version, outDir, targets })) process.stdout.write(`${archive}\n`);
  } catch (err) {
    process.stderr.write(`[plugin-archives] error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
