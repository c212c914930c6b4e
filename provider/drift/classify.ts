/**
 * Classifies one stack from the engine events of its refresh-preview (and the error it ended
 * with, if any): clean, drift (the next `up` converges), drift-blocked (the provider refuses,
 * by refusal code) or error.
 *
 * Why from engine events: they are the engine's own structured account (refresh results with
 * the state before and the live values after, planned steps, diagnostics with their resource),
 * so nothing depends on the CLI's wording. Pure, so it is unit-tested on recorded events.
 */
import { isDeepStrictEqual } from "util";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { SIG_KEY } from "../adapters/secrets";
import { refusalCodesIn } from "../resources/refusals";
import type { FieldDrift, Refusal, ResourceDrift, StackClass } from "./report";

/** What a stack's classification says (the stack's identity and timing are added by the caller). */
export interface Classification {
  readonly class: StackClass;
  readonly resources: ResourceDrift[];
  readonly refusals: Refusal[];
  readonly error?: string;
}

interface StepMetadata {
  op: string;
  urn: string;
  type: string;
  old?: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> } | null;
  new?: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> } | null;
}

/** Steps that change nothing on the platform. */
const NO_CHANGE_OPS = new Set(["same", "refresh", "read", "discard", "remove-pending-replace"]);

/** Secrets as `[secret]`, recursively; everything else as it is. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value !== null && typeof value === "object") {
    if (SIG_KEY in value) return "[secret]";
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v)]));
  }
  return value;
}

/** Properties users declare and read: the engine's and the dynamic provider's own (`__provider`) left out. */
function userProperties(bag: Record<string, unknown> | undefined | null): Record<string, unknown> {
  return Object.fromEntries(Object.entries(bag ?? {}).filter(([k]) => !k.startsWith("__")));
}

/** The fields whose values differ between `before` and `after`, with both values masked. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): Array<{ field: string; before?: unknown; after?: unknown }> {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys
    .filter((k) => !isDeepStrictEqual(maskSecrets(before[k]), maskSecrets(after[k])))
    .map((k) => ({ field: k, ...(k in before ? { before: maskSecrets(before[k]) } : {}), ...(k in after ? { after: maskSecrets(after[k]) } : {}) }));
}

/** Resources of the program: not the stack itself, not providers. */
function isUserResource(type: string): boolean {
  return type !== "pulumi:pulumi:Stack" && !type.startsWith("pulumi:providers:");
}

function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** The first `error:` lines of a failed CLI run's text, else its last line: a message fit for a report. */
export function briefError(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  // A CommandError's text starts its stderr with "stderr: " on the first line.
  const errorLine = /^(?:stderr:\s*)?error: /i;
  const errors = lines.filter((l) => errorLine.test(l)).map((l) => l.replace(errorLine, ""));
  const brief = errors.length ? [...new Set(errors)].join("; ") : (lines[lines.length - 1] ?? "the preview failed");
  return brief.length > 2000 ? `${brief.slice(0, 2000)}...` : brief;
}

/**
 * Classifies a stack. `failure` is the text of the error the preview ended with (undefined when
 * it succeeded); events are the engine events it emitted, in order.
 */
export function classify(events: readonly EngineEvent[], failure?: string): Classification {
  const refreshed = new Map<string, { type: string; fields: ReturnType<typeof changedFields>; deleted: boolean }>();
  const planned = new Map<string, StepMetadata>();
  const refusals: Refusal[] = [];
  const errors: string[] = [];

  for (const e of events) {
    const out = e.resOutputsEvent?.metadata as StepMetadata | undefined;
    if (out && out.op === "refresh" && isUserResource(out.type)) {
      const before = userProperties(out.old?.outputs);
      if (!out.new) refreshed.set(out.urn, { type: out.type, fields: [], deleted: true });
      else {
        const fields = changedFields(before, userProperties(out.new.outputs));
        if (fields.length) refreshed.set(out.urn, { type: out.type, fields, deleted: false });
      }
    }
    const pre = e.resourcePreEvent?.metadata as StepMetadata | undefined;
    if (pre && !NO_CHANGE_OPS.has(pre.op) && isUserResource(pre.type) && !planned.has(pre.urn)) planned.set(pre.urn, pre);
    const diag = e.diagnosticEvent;
    if (diag && diag.severity === "error") {
      const message = diag.message.trim();
      const codes = refusalCodesIn(message);
      if (codes.length) for (const code of codes) refusals.push({ code, message, ...(diag.urn ? { urn: diag.urn } : {}) });
      else errors.push(message);
    }
  }

  const resources: ResourceDrift[] = [];
  for (const urn of new Set([...refreshed.keys(), ...planned.keys()])) {
    const r = refreshed.get(urn);
    const step = planned.get(urn);
    const declared = step?.new ? userProperties(step.new.inputs) : undefined;
    let fields: FieldDrift[];
    if (r && !r.deleted) {
      fields = r.fields.map((f) => ({
        field: f.field,
        ...("before" in f ? { state: f.before } : {}),
        ...("after" in f ? { live: f.after } : {}),
        ...(declared && f.field in declared ? { declared: maskSecrets(declared[f.field]) } : {}),
      }));
    } else if (step && !r) {
      fields = changedFields(userProperties(step.old?.inputs), declared ?? {}).map((f) => ({
        field: f.field,
        ...("before" in f ? { state: f.before, live: f.before } : {}),
        ...("after" in f ? { declared: f.after } : {}),
      }));
    } else fields = [];
    resources.push({
      urn,
      type: r?.type ?? step?.type ?? "",
      name: nameOf(urn),
      live: r ? (r.deleted ? "deleted" : "modified") : "pending",
      plannedOp: step ? step.op : "none",
      fields,
    });
  }
  resources.sort((a, b) => a.urn.localeCompare(b.urn));

  if (errors.length || (failure !== undefined && refusals.length === 0)) {
    const error = errors.length ? [...new Set(errors)].join("\n") : briefError(failure ?? "");
    return { class: "error", resources, refusals, error };
  }
  if (refusals.length) return { class: "drift-blocked", resources, refusals };
  return { class: resources.length ? "drift" : "clean", resources, refusals };
}
