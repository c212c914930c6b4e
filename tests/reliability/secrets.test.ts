/**
 * Secrets: after `up`, `refresh`, a failed `up` and `destroy` of the quickstart, the API key is
 * nowhere it must not be:
 * - `pulumi stack export` run by hand (no --show-secrets) with the stack's own environment;
 * - the decrypted export (`stack.exportStack()`), except as the engine's own encrypted copy of
 *   the stack config on the default `pulumi:providers:pulumi-nodejs` provider (that is how
 *   `configure()` receives it), which the plain export must show as a secret;
 * - any resource of ours, and `__provider` (which must also hold no HTTP library: no "axios",
 *   no "createClient", under 4096 bytes);
 * - the engine's event log (`onEvent`), the operation's output (`onOutput`) and every error
 *   message;
 * - any file of the backend directory (state, backups, history).
 *
 * The stack keeps the passphrase secrets provider, a user's default on a `file://` backend
 * (other suites use the loopback stand-in of testKeeper.ts).
 */
import { execFileSync } from "child_process";
import * as path from "path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startSimulator } from "../../simulator";
import { admin, newKey } from "../unit/api/helpers";
import { createTestStack, pulumiRoot, type TestStack } from "../integration/harness";
import { backendFiles } from "../integration/stateSecrets";
import {
  count,
  EVENT_PATH,
  printSummary,
  quickstartProgram,
  rejectionMessage,
  SECRET_SIG_KEY,
  SECRET_SIG_VALUE,
  simConfig,
  type Sim,
} from "./support";

jest.setTimeout(600_000);

const KEY = newKey();
/** A prefix of the key is a leak too. */
const KEY_PREFIX = KEY.slice(0, 12);
const DEFAULT_PROVIDER = "pulumi:providers:pulumi-nodejs";

let sim: Sim;
let t: TestStack | undefined;
let scans = 0;
let clean = 0;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, timeScale: 60 });
  t = await createTestStack({ projectName: "reliability-secrets", program: quickstartProgram, config: simConfig(sim, KEY), passphraseSecrets: true });
});

afterAll(async () => {
  try {
    await t?.cleanup();
  } finally {
    await sim?.close();
    count((c) => {
      c.secretScans += scans;
      c.secretScansClean += clean;
    });
    printSummary("secrets", `${clean}/${scans} scans clean`);
  }
});

/** Paths (a.b[2].c) in `v` at which a string contains the key or its prefix. */
function keyPaths(v: unknown, at = "$"): string[] {
  if (typeof v === "string") return v.includes(KEY_PREFIX) ? [at] : [];
  if (Array.isArray(v)) return v.flatMap((x, i) => keyPaths(x, `${at}[${i}]`));
  if (v !== null && typeof v === "object") return Object.entries(v).flatMap(([k, x]) => [...(k.includes(KEY_PREFIX) ? [`${at}{key}`] : []), ...keyPaths(x, `${at}.${k}`)]);
  return [];
}

/** `pulumi stack export` run directly (no --show-secrets), with the stack's environment. */
function cliExport(): string {
  const root = pulumiRoot();
  const env = { ...process.env, ...t!.envVars, PATH: `${path.join(root, "bin")}${path.delimiter}${process.env.PATH ?? ""}` };
  expect(keyPaths(env)).toEqual([]); // the key reaches the engine through encrypted config only
  return execFileSync(path.join(root, "bin", "pulumi"), ["stack", "export", "--stack", "test", "--non-interactive"], {
    cwd: t!.stack.workspace.workDir,
    env,
    encoding: "utf8",
  });
}

/** What one operation left behind: its output, its engine events, its error (if it failed). */
interface Trail {
  output: string;
  events: EngineEvent[];
  error?: string;
}

/** Runs every scan after an operation; counts a clean scan only when all its checks pass. */
async function scan(op: string, trail: Trail): Promise<void> {
  scans++;
  // 1. The operation's output, events and error.
  expect(keyPaths(trail.output)).toEqual([]);
  expect(trail.events.length).toBeGreaterThan(0);
  expect(keyPaths(trail.events)).toEqual([]);
  if (trail.error !== undefined) expect(keyPaths(trail.error)).toEqual([]);

  // 2. The plain export, as a user gets it from the CLI.
  const plainText = cliExport();
  expect(plainText).not.toContain(KEY_PREFIX);
  const plain = JSON.parse(plainText) as { deployment: { resources?: Array<Record<string, any>> } };

  // 3. The decrypted export: the key only as the default provider's copy of the stack config.
  const decrypted = (await t!.stack.exportStack()).deployment as { resources?: Array<Record<string, any>> };
  const resources = decrypted.resources ?? [];
  const found = resources.flatMap((r, i) => keyPaths(r).map((p) => ({ type: String(r.type), urn: String(r.urn), p, i })));
  for (const f of found) {
    expect(f.type).toBe(DEFAULT_PROVIDER);
    expect(f.p).toMatch(/^\$\.(inputs|outputs)\.cloudplatform:apiKey(\.plaintext)?$/);
    // ... and the same entry of the plain export is marked secret (encrypted).
    const entry = (plain.deployment.resources ?? []).find((r) => r.urn === f.urn);
    const bag = f.p.includes(".inputs.") ? entry?.inputs : entry?.outputs;
    expect(bag?.["cloudplatform:apiKey"]?.[SECRET_SIG_KEY]).toBe(SECRET_SIG_VALUE);
    expect(bag?.["cloudplatform:apiKey"]?.ciphertext).toEqual(expect.any(String));
  }
  const ours = resources.filter((r) => String(r.type).startsWith("pulumi-nodejs:dynamic/"));
  for (const r of ours) {
    expect(keyPaths(r)).toEqual([]);
    for (const bag of [r.inputs, r.outputs]) {
      const code = String(bag?.__provider ?? "");
      expect(code.length).toBeGreaterThan(0);
      expect(code).not.toContain("axios");
      expect(code).not.toContain("createClient");
      expect(Buffer.byteLength(code, "utf8")).toBeLessThan(4096);
    }
  }

  // 4. Every file the backend wrote (current state, backups, history).
  expect(backendFiles(t!.backendUrl).filter((f) => f.text.includes(KEY_PREFIX)).map((f) => f.file)).toEqual([]);
  clean++;
  console.log(`secrets: ${op}: clean (${ours.length} resources of ours, key found only at ${found.map((f) => `${f.type}${f.p.slice(1)}`).join(", ") || "nowhere"})`);
}

/** Collects output and engine events of one operation. */
function trail(): Trail & { opts: { color: "never"; onOutput: (s: string) => void; onEvent: (e: EngineEvent) => void } } {
  const tr: Trail = { output: "", events: [] };
  return Object.assign(tr, {
    opts: { color: "never" as const, onOutput: (s: string) => void (tr.output += s), onEvent: (e: EngineEvent) => void tr.events.push(e) },
  });
}

test("after up", async () => {
  const tr = trail();
  const up = await t!.stack.up(tr.opts);
  expect(up.summary.resourceChanges).toEqual({ create: 4 });
  tr.output += up.stdout + up.stderr;
  await scan("up", tr);
});

test("after refresh", async () => {
  const tr = trail();
  const refresh = await t!.stack.refresh(tr.opts);
  expect(refresh.summary.resourceChanges).toEqual({ same: 4 });
  tr.output += refresh.stdout + refresh.stderr;
  await scan("refresh", tr);
});

test("after a failed up (an event deleted elsewhere, every call to the event endpoints reset)", async () => {
  const uuid = sim.state().storageEvents[0]?.uuid;
  await admin(sim, "DELETE", `/events/${uuid}`);
  await admin(sim, "POST", "/faults", { resetRate: 1, pathPrefix: EVENT_PATH });
  const tr = trail();
  try {
    tr.error = await rejectionMessage(t!.stack.up({ ...tr.opts, refresh: true }));
  } finally {
    await admin(sim, "DELETE", "/faults");
  }
  expect(tr.error).toMatch(/GET \/storage\/notifications\/v1\/events/);
  expect(tr.error).toMatch(/ECONNRESET|socket hang up/);
  await scan("failed up", tr);
});

test("after destroy", async () => {
  const tr = trail();
  const destroy = await t!.stack.destroy(tr.opts);
  expect(destroy.summary.result).toBe("succeeded");
  tr.output += destroy.stdout + destroy.stderr;
  await scan("destroy", tr);
});
