/**
 * Measurement 8: how long `pulumi preview` takes to fail on a bad lookup argument
 * (`getInstances` with `pageSize: 5000`), Promise form against Output form.
 *
 * The program (bench/programs/bad-lookup) runs in the language host's own process, as a user's
 * program does: the Pulumi SDK's handling of an error thrown inside `apply` is what made the
 * Output form take ~40 s, and only a real program process shows it. Forms: the Promise form,
 * the Output form with plain arguments (checked at the call), and, for information, the Output
 * form with the bad value inside an Output (checkable only when the value arrives, in `apply`).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { offlineEnv, pulumiRoot } from "../tests/integration/harness";
import { errorText, opOptions, progress, ROOT, secs, simConfig, startSim, timed } from "./common";
import type { Section, Verdict } from "./report";

/** The message both forms must fail with. */
const MESSAGE = "getInstances: pageSize must be an integer from 1 to 1000; got 5000";

/** Rounds per form with a target (the fastest counts, as in the wall-time section). */
const ROUNDS = 2;

/** The Output form with plain arguments may take at most this much longer than the Promise form. */
const TARGET_RATIO = 1.5;

interface Form {
  form: string;
  label: string;
  rounds: number;
}

const FORMS: Form[] = [
  { form: "promise", label: "Promise form: getInstances({ pageSize: 5000 })", rounds: ROUNDS },
  { form: "output", label: "Output form: getInstancesOutput({ pageSize: 5000 })", rounds: ROUNDS },
  { form: "output-pending", label: "Output form, value in an Output: getInstancesOutput({ pageSize: pulumi.output(5000) })", rounds: 1 },
];

interface Measured {
  form: Form;
  /** Fastest failing preview, ms. */
  ms: number;
  /** Whether every preview failed with {@link MESSAGE}. */
  messageSeen: boolean;
  error?: string;
}

/** A stack for the bad-lookup program on a temporary backend; returns it and its cleanup. */
async function programStack(config: Record<string, { value: string; secret?: boolean }>): Promise<{ stack: Stack; cleanup: () => Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-bench-bad-lookup-"));
  const home = path.join(dir, "home");
  const backend = path.join(dir, "backend");
  const work = path.join(dir, "work");
  for (const d of [home, backend, work]) fs.mkdirSync(d, { recursive: true });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "bench", workDir: work },
    {
      pulumiCommand: await PulumiCommand.get({ root: pulumiRoot() }),
      pulumiHome: home,
      envVars: { ...offlineEnv(home), PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
      projectSettings: {
        name: "bad-lookup",
        runtime: "nodejs",
        // The program's folder inside the repo: `pulumi-cloudplatform` resolves to the built package.
        main: path.join(ROOT, "bench/programs/bad-lookup"),
        backend: { url: `file://${backend}` },
      },
    },
  );
  await stack.setAllConfig(config);
  return {
    stack,
    cleanup: async () => {
      await stack.workspace.removeStack("bench", { force: true }).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs the failing previews and returns the section. */
export async function badArgumentSection(): Promise<Section> {
  const section: Section = {
    title: "8. Bad lookup argument: time to fail a preview",
    method:
      "`pulumi preview` of a tiny program (its own process, as a user's program runs) whose lookup has `pageSize: 5000`; time until the preview fails. " +
      `Fastest of ${ROUNDS} rounds per form; the pending-value form once, for information. Target: the Output form with plain arguments fails within ${TARGET_RATIO}x the Promise form's time, with the same message.`,
    tables: [{ headers: ["Form", "Preview fails after", "Message", "Result"], rows: [] }],
    notes: [],
    targets: [],
  };
  const sim = await startSim();
  const measured: Measured[] = [];
  const { stack, cleanup } = await programStack(simConfig(sim.sim));
  try {
    for (const form of FORMS) {
      await stack.setConfig("bad-lookup:form", { value: form.form });
      let fastest = Infinity;
      let messageSeen = true;
      let error: string | undefined;
      for (let round = 0; round < form.rounds; round++) {
        const { ms, result } = await timed(() =>
          stack.preview(opOptions()).then(
            () => undefined,
            (e: unknown) => e,
          ),
        );
        if (result === undefined) {
          error = "the preview succeeded";
          break;
        }
        fastest = Math.min(fastest, ms);
        if (!String((result as Error).message).includes(MESSAGE)) {
          messageSeen = false;
          error = `failed with another message: ${errorText(result)}`;
        }
        progress(`bad argument, ${form.form}: preview failed after ${secs(ms)}`);
      }
      measured.push({ form, ms: fastest, messageSeen, ...(error ? { error } : {}) });
    }
  } finally {
    await cleanup();
    await sim.sim.close();
  }

  const byForm = new Map(measured.map((m) => [m.form.form, m]));
  const promise = byForm.get("promise");
  const output = byForm.get("output");
  for (const m of measured) {
    const verdict: Verdict = m.error ? "ERROR" : m.form.form === "output" && promise ? (m.ms <= promise.ms * TARGET_RATIO ? "OK" : "MISSED") : "INFO";
    section.tables[0]!.rows.push([m.form.label, m.error && !Number.isFinite(m.ms) ? "-" : secs(m.ms), m.messageSeen ? "the expected one" : "DIFFERENT", verdict]);
    if (m.error) section.notes.push(`ERROR (${m.form.form}): ${m.error}`);
  }
  if (promise && output && !promise.error && !output.error) {
    const ratio = output.ms / promise.ms;
    const ok = ratio <= TARGET_RATIO && output.messageSeen;
    section.targets.push({
      target: `Output form (plain arguments) fails within ${TARGET_RATIO}x the Promise form, same message`,
      verdict: ok ? "OK" : "MISSED",
      why: `${secs(output.ms)} vs ${secs(promise.ms)} (${ratio.toFixed(2)}x)${output.messageSeen ? "" : "; message differs"}`,
    });
  } else {
    section.targets.push({ target: "bad-argument previews measured", verdict: "ERROR", why: promise?.error ?? output?.error ?? "missing measurement" });
  }
  const pending = byForm.get("output-pending");
  if (pending && !pending.error) {
    section.notes.push(
      `A bad value that is itself an Output can only be checked when it arrives, inside \`apply\`; the Pulumi SDK then takes ${secs(pending.ms)} to fail the program (its handling of an error thrown in \`apply\`).`,
    );
  }
  return section;
}
