/**
 * The plugin archives' names and launchers (tools/release/pluginArchives.js): the six names the
 * engine looks for, a POSIX launcher that finds the package beside it however it is started
 * (absolute path, relative path, through symlinks), and a Windows `.cmd` that runs the same file.
 * Building real archives is the integration test's part (tests/integration/release.test.ts).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

interface ArchiveTool {
  TARGETS: { os: string; arch: string }[];
  PLUGIN_MAIN: string[];
  SH_LAUNCHER: string;
  CMD_LAUNCHER: string;
  archiveName(version: string, os: string, arch: string): string;
  launcherFor(os: string): { name: string; text: string };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tool = require("../../../tools/release/pluginArchives.js") as ArchiveTool;

test("one archive per OS and architecture, named as `pulumi plugin install` expects", () => {
  expect(tool.TARGETS.map((t) => tool.archiveName("1.4.0", t.os, t.arch)).sort()).toEqual([
    "pulumi-resource-cloudplatform-v1.4.0-darwin-amd64.tar.gz",
    "pulumi-resource-cloudplatform-v1.4.0-darwin-arm64.tar.gz",
    "pulumi-resource-cloudplatform-v1.4.0-linux-amd64.tar.gz",
    "pulumi-resource-cloudplatform-v1.4.0-linux-arm64.tar.gz",
    "pulumi-resource-cloudplatform-v1.4.0-windows-amd64.tar.gz",
    "pulumi-resource-cloudplatform-v1.4.0-windows-arm64.tar.gz",
  ]);
  expect(() => tool.archiveName("1.4.0", "linux", "x64")).toThrow("no plugin archive for linux-x64: targets are linux-amd64, linux-arm64, darwin-amd64");
  expect(tool.launcherFor("linux").name).toBe("pulumi-resource-cloudplatform");
  expect(tool.launcherFor("darwin").name).toBe("pulumi-resource-cloudplatform");
  expect(tool.launcherFor("windows").name).toBe("pulumi-resource-cloudplatform.cmd");
});

describe("the POSIX launcher", () => {
  let root: string;
  let launcher: string;
  const run = (file: string, cwd: string) =>
    JSON.parse(execFileSync(file, ["127.0.0.1:1234", "two words"], { cwd, encoding: "utf8" })) as { main: string; args: string[] };

  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-launcher-")));
    const archiveRoot = path.join(root, "plugins", "resource-cloudplatform-v1.4.0");
    const main = path.join(archiveRoot, ...tool.PLUGIN_MAIN);
    fs.mkdirSync(path.dirname(main), { recursive: true });
    fs.writeFileSync(main, "process.stdout.write(JSON.stringify({ main: __filename, args: process.argv.slice(2) }));\n");
    launcher = path.join(archiveRoot, tool.launcherFor("linux").name);
    fs.writeFileSync(launcher, tool.SH_LAUNCHER, { mode: 0o755 });
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("runs the package's plugin main with the engine's arguments, by absolute or relative path", () => {
    const expected = { main: path.join(path.dirname(launcher), ...tool.PLUGIN_MAIN), args: ["127.0.0.1:1234", "two words"] };
    expect(run(launcher, os.tmpdir())).toEqual(expected);
    expect(run(`./${path.relative(root, launcher)}`, root)).toEqual(expected);
  });

  it("follows a chain of relative and absolute symlinks (a link on PATH)", () => {
    const bin = path.join(root, "bin");
    fs.mkdirSync(bin);
    fs.symlinkSync(launcher, path.join(bin, "absolute-link"));
    fs.symlinkSync("absolute-link", path.join(bin, "pulumi-resource-cloudplatform"));
    expect(run(path.join(bin, "pulumi-resource-cloudplatform"), os.tmpdir()).main).toBe(path.join(path.dirname(launcher), ...tool.PLUGIN_MAIN));
  });
});

test("the Windows launcher runs the same file beside it with every argument, in CRLF lines", () => {
  const text = tool.CMD_LAUNCHER;
  expect(text.split("\r\n")[0]).toBe("@echo off");
  expect(text.replace(/\r\n/g, "")).not.toMatch(/\n/);
  const nodeLine = text.split("\r\n").find((l) => l.startsWith("node "));
  expect(nodeLine).toBe(`node "%~dp0${tool.PLUGIN_MAIN.join("\\")}" %*`);
  expect(tool.SH_LAUNCHER).toContain(`"$(dirname "$self")/${tool.PLUGIN_MAIN.join("/")}" "$@"`);
  expect(tool.PLUGIN_MAIN.join("/")).toBe("node_modules/pulumi-cloudplatform/dist/provider/plugin/main.js");
  // The package's own bin starts the same compiled plugin.
  const bin = fs.readFileSync(path.resolve(__dirname, "../../../bin/pulumi-resource-cloudplatform"), "utf8");
  expect(bin).toContain(`/../${tool.PLUGIN_MAIN.slice(2).join("/")}"`);
  // ...and follows symlinks with the same walk as the archives' launcher, tested below.
  const symlinkWalk = (text: string) => text.slice(text.indexOf("self=$0"), text.indexOf("done") + "done".length);
  expect(symlinkWalk(bin)).toBe(symlinkWalk(tool.SH_LAUNCHER));
  expect(symlinkWalk(bin)).toContain("while [ -h");
});
