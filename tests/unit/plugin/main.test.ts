/**
 * The plugin executable as the engine starts it: `bin/pulumi-resource-cloudplatform <engine>`
 * prints its gRPC port on the first stdout line, serves the provider there, and exits once the
 * engine is gone. Runs the compiled `dist/` (build first, as `make test-unit` does).
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type * as pluginProto from "@pulumi/pulumi/proto/plugin_pb";
import { VERSION } from "../../../provider/api/version";
import { engineAddressFrom } from "../../../provider/engineWatch";
import { launchedByRunPlugin } from "../../../sdk/nodejs/internal/sourcePlugin";
import { call, providerClient, startFakeEngine } from "./grpcClient";
import { CPU_BOUND_MS } from "../cpuBound";

const BIN = path.resolve(__dirname, "../../../bin/pulumi-resource-cloudplatform");

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.once("exit", (code) => reject(new Error(`plugin exited (${code}) before printing its port: ${out}`)));
  });
}

test("the plugin finds the engine address among the engine's flags, a tracing endpoint included", () => {
  expect(engineAddressFrom(["-v=9", "--logtostderr", "127.0.0.1:4567", "extra"])).toBe("127.0.0.1:4567");
  expect(engineAddressFrom(["--tracing", "file:/tmp/trace.json", "127.0.0.1:4567"])).toBe("127.0.0.1:4567");
  expect(engineAddressFrom(["--logflow"])).toBeUndefined();
});

test("loading the SDK starts the plugin only under @pulumi/pulumi/cmd/run-plugin (a source-based plugin launch)", () => {
  expect(launchedByRunPlugin("/p/node_modules/@pulumi/pulumi/cmd/run-plugin/index.js")).toBe(true);
  expect(launchedByRunPlugin("/p/node_modules/@pulumi/pulumi/cmd/run/index.js")).toBe(false);
  expect(launchedByRunPlugin("/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js")).toBe(false);
  expect(launchedByRunPlugin(undefined)).toBe(false);
});

const linkDirs: string[] = [];
afterAll(() => {
  for (const dir of linkDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A chain of symlinks to the bin like npm's (`node_modules/.bin/x -> ../pkg/bin/x`): one relative
 * link, then an absolute one, so the launcher must resolve both kinds itself.
 */
function linkedBin(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-bin-link-"));
  linkDirs.push(dir);
  fs.mkdirSync(path.join(dir, ".bin"));
  fs.mkdirSync(path.join(dir, "pkg"));
  fs.symlinkSync(BIN, path.join(dir, "pkg", "pulumi-resource-cloudplatform"));
  fs.symlinkSync("../pkg/pulumi-resource-cloudplatform", path.join(dir, ".bin", "pulumi-resource-cloudplatform"));
  return path.join(dir, ".bin", "pulumi-resource-cloudplatform");
}

test.each([
  ["the bin itself", () => BIN],
  ["the bin through npm-style symlinks", linkedBin],
])("%s prints its port, answers on it, and exits when the engine is gone", async (_label, launcher) => {
  const engine = await startFakeEngine();
  const child = spawn(launcher(), ["--logtostderr", engine.address], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    const line = await firstLine(child);
    expect(line).toMatch(/^\d+$/);
    const client = providerClient(Number(line));
    const info = await call<Empty, pluginProto.PluginInfo>(client, "getPluginInfo", new Empty());
    expect(info.getVersion()).toBe(VERSION);
    client.close();
    engine.close();
    expect(await exited).not.toBeNull();
  } finally {
    child.kill();
    engine.close();
  }
}, CPU_BOUND_MS);
