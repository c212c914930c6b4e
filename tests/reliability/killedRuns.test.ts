/**
 * What a killed `pulumi up` leaves behind, and what the user's next steps reach:
 *
 * 1. Killed while a StorageEvent POST is in flight: the server still creates the event, the
 *    stack never records it. The next `up` (after clearing the pending operation, as Pulumi
 *    tells users) fails before any write, naming the event's uuid and `adoptUuid`; with that one
 *    explicit step the following `up` takes it over: one event in total, no second POST.
 * 2. Only the `pulumi` process killed during an upgrade wait (a CI job cancelled hard): the
 *    dynamic-provider process notices its engine is gone and exits within seconds instead of
 *    polling on (and maybe starting the next step) for nobody.
 */
import { startSimulator } from "../../simulator";
import { admin, newKey } from "../unit/api/helpers";
import { killRun, killSession, sessionProcesses, spawnPulumi, until, type CliRun } from "../integration/cliProcess";
import { createTestStack, pulumiRoot, resourcesByName, SDK_PATH } from "../integration/harness";
import {
  createProgramDirStack,
  EVENT_PATH,
  handled,
  rejectionMessage,
  simConfig,
  UPGRADE_PATH,
  writeQuickstartProgramDir,
  type Sim,
} from "./support";

jest.setTimeout(600_000);

const HOLD_MS = 5_000;
const UP = ["up", "--yes", "--skip-preview", "--non-interactive", "--color", "never", "--stack", "test"];

let sim: Sim;
let live: CliRun | undefined;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 1 });
});

afterAll(async () => {
  if (live) killSession(live.sid);
  await sim?.close();
});

const posts = () => sim.requests().filter((r) => r.method === "POST" && r.path === EVENT_PATH);

/** One StorageEvent; config `adopt`, when set, becomes its `adoptUuid`. */
const EVENT_PROGRAM = [
  `const pulumi = require("@pulumi/pulumi");`,
  `const cloud = require(${JSON.stringify(SDK_PATH)});`,
  `const adopt = new pulumi.Config().get("adopt");`,
  `const event = new cloud.StorageEvent("space", { name: "reaching_used_space", storageName: "killed-run", bytes: 5, ...(adopt ? { adoptUuid: adopt } : {}) });`,
  `exports.uuid = event.uuid;`,
  "",
].join("\n");

test("killed during an event create: the next up names the orphan, adopting it reaches one event and no second POST", async () => {
  await admin(sim, "POST", "/reset");
  const t = await createProgramDirStack("killed-create", EVENT_PROGRAM, simConfig(sim));
  try {
    // Hold the create's POST (not its list); kill while the simulator reports the POST held.
    await admin(sim, "POST", "/faults", { latencyMs: HOLD_MS, path: EVENT_PATH, method: "POST" });
    const run = spawnPulumi(pulumiRoot(), UP, t.programDir, t.envVars);
    live = run;
    const held = () => sim.inFlight().some((r) => r.held && r.method === "POST" && r.path === EVENT_PATH);
    await until("the held event POST", held, 120_000, run.output);
    await killRun(run);
    live = undefined;
    await until("the held POST to be handled", () => posts().length === 1, HOLD_MS + 10_000, () => JSON.stringify(sim.requests()));
    await admin(sim, "DELETE", "/faults");
    const orphan = sim.state().storageEvents;
    expect(orphan).toHaveLength(1);
    expect((await resourcesByName(t.stack)).has("space")).toBe(false);

    // What docs/resources/storage-event.md tells users: `pulumi cancel` (the killed run's lock), then
    // `pulumi refresh --clear-pending-creates`, then `pulumi up`.
    await t.stack.cancel();
    const pendingBefore = ((await t.stack.exportStack()).deployment as { pending_operations?: unknown[] }).pending_operations ?? [];
    expect(pendingBefore).toHaveLength(1);
    await t.stack.refresh({ color: "never", clearPendingCreates: true });
    expect(((await t.stack.exportStack()).deployment as { pending_operations?: unknown[] }).pending_operations ?? []).toEqual([]);
    const message = await rejectionMessage(t.stack.up({ color: "never" }));
    expect(message).toContain(`already exists (uuid ${orphan[0]!.uuid}, bytes 5)`);
    expect(message).toContain(`adoptUuid: "${orphan[0]!.uuid}"`);
    expect(posts()).toHaveLength(1);

    // The one explicit step: adopt it.
    await t.stack.setConfig("adopt", { value: String(orphan[0]!.uuid) });
    const up = await t.stack.up({ color: "never" });
    expect(up.outputs["uuid"]?.value).toBe(orphan[0]!.uuid);
    expect(posts()).toHaveLength(1);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: orphan[0]!.uuid, bytes: 5 })]);
    expect((await t.stack.preview({ color: "never" })).changeSummary).toEqual({ same: 2 });
  } finally {
    await admin(sim, "DELETE", "/faults").catch(() => undefined);
    await t.cleanup();
  }
  expect(sim.state().storageEvents).toEqual([]);
});

test("pulumi alone killed during an upgrade wait: the provider process exits within seconds", async () => {
  await admin(sim, "POST", "/reset");
  const t = await createTestStack({ projectName: "orphaned-provider", config: simConfig(sim), writeProgram: (dir) => writeQuickstartProgramDir(dir, "orphaned-provider") });
  let run: CliRun | undefined;
  try {
    run = spawnPulumi(pulumiRoot(), UP, t.programDir, t.envVars);
    live = run;
    // At 1x the upgrade task runs 30 s: the provider is waiting on it.
    await until("the upgrade POST", () => handled(sim.requests(), "POST", UPGRADE_PATH).length > 0, 120_000, run.output);
    const providers = sessionProcesses(run.sid).filter((p) => /dynamic-provider/.test(p.args));
    expect(providers.length).toBeGreaterThan(0);

    process.kill(run.proc.pid!, "SIGKILL");
    await run.exited;
    const alive = () => providers.filter((p) => sessionProcesses(run!.sid).some((q) => q.pid === p.pid));
    await until("the orphaned provider to exit", () => alive().length === 0, 10_000, () => JSON.stringify(alive()));

  } finally {
    if (run) killSession(run.sid);
    live = undefined;
    await t.stack.cancel().catch(() => undefined);
    await t.cleanup();
  }
});
