/**
 * A fake `pulumi` for the drift command's bounds: `version` answers, `stack ls` never does, and
 * `preview` of the stack `stuck` never ends while any other stack's preview ends clean. A run
 * that hangs starts a "plugin" in a session of its own (as the CLI starts its plugins) and both
 * ignore SIGTERM, so only a stop that finds the whole tree and follows with SIGKILL ends them.
 * Every pid it starts is appended to `$FAKE_PULUMI_PIDS`.
 */
import * as fs from "fs";
import * as path from "path";

const SCRIPT = `
const { spawn } = require("child_process");
const fs = require("fs");
const args = process.argv.slice(2);
const flag = (name) => args[args.indexOf(name) + 1];
const hang = () => {
  process.on("SIGTERM", () => {});
  const plugin = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { detached: true, stdio: "ignore" });
  fs.appendFileSync(process.env.FAKE_PULUMI_PIDS, process.pid + "\\n" + plugin.pid + "\\n");
  setInterval(() => {}, 1000);
};
if (args[0] === "version") console.log("v3.248.0");
else if (args[0] === "stack" && args[1] === "ls") hang();
else if (args[0] === "preview" && flag("--stack") === "stuck") hang();
else if (args[0] === "preview") fs.writeFileSync(flag("--event-log"), JSON.stringify({ sequence: 0, timestamp: 0, summaryEvent: {} }) + "\\n");
else { console.error("error: the fake pulumi has no " + args.join(" ")); process.exit(1); }
`;

/** Writes the fake as `pulumi` into `dir` (to go first on PATH); returns the file its pids go to. */
export function installFakePulumi(dir: string): string {
  fs.writeFileSync(path.join(dir, "fake-pulumi.js"), SCRIPT);
  fs.writeFileSync(path.join(dir, "pulumi"), `#!/bin/sh\nexec "${process.execPath}" "${path.join(dir, "fake-pulumi.js")}" "$@"\n`, { mode: 0o755 });
  return path.join(dir, "pids");
}

/** The pids the fake started so far. */
export function fakePids(pidFile: string): number[] {
  return fs.existsSync(pidFile) ? fs.readFileSync(pidFile, "utf8").split("\n").filter(Boolean).map(Number) : [];
}
