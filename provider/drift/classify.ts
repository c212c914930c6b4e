/**
 * Classifies one stack from the engine events of its refresh-preview: clean, drift (the next `up`
 * converges), drift-blocked (the provider refuses, by refusal code) or error. Pure, so it is
 * unit-tested on recorded events.
 *
 * The class and the resources come from the engine's structured events (refresh results, planned
 * steps, diagnostics) and the refusal codes the provider ends its messages with, never from the
 * CLI's wording. The one CLI text read is a failure the engine never reported (no such stack, no
 * passphrase, no backend), kept by `briefError` as the message; the class is `error` whatever it says.
 */
import { isDeepStrictEqual } from "util";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { SIG_KEY } from "../adapters/secrets";
import { refusalCodesIn } from "../resources/refusals";
import { resourceNameOf, type FieldDrift, type Refusal, type ResourceDrift, type StackClass } from "./report";

/** What a stack's classification says (the stack's identity and timing are added by the caller). */
export interface Classification {
  readonly class: StackClass;
  readonly resources: ResourceDrift[];
  readonly refusals: Refusal[];
  readonly error?: string;
}

type Properties = Record<string, unknown>;

interface StepMetadata {
  op: string;
  urn: string;
  type: string;
  old?: { inputs?: Properties; outputs?: Properties } | null;
  new?: { inputs?: Properties; outputs?: Properties } | null;
}

/** A refreshed resource whose live object differs from its state. */
interface RefreshChange {
  readonly type: string;
  readonly deleted: boolean;
  readonly fields: ChangedField[];
}

interface ChangedField {
  readonly field: string;
  readonly before?: unknown;
  readonly after?: unknown;
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
function userProperties(bag: Properties | undefined | null): Properties {
  return Object.fromEntries(Object.entries(bag ?? {}).filter(([k]) => !k.startsWith("__")));
}

function changedFields(before: Properties, after: Properties): ChangedField[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys
    .filter((k) => !isDeepStrictEqual(maskSecrets(before[k]), maskSecrets(after[k])))
    .map((k) => ({ field: k, ...(k in before ? { before: maskSecrets(before[k]) } : {}), ...(k in after ? { after: maskSecrets(after[k]) } : {}) }));
}

function isUserResource(type: string): boolean {
  return type !== "pulumi:pulumi:Stack" && !type.startsWith("pulumi:providers:");
}

function refreshChanges(events: readonly EngineEvent[]): Map<string, RefreshChange> {
  const changes = new Map<string, RefreshChange>();
  for (const e of events) {
    const step = e.resOutputsEvent?.metadata as StepMetadata | undefined;
    if (!step || step.op !== "refresh" || !isUserResource(step.type)) continue;
    if (!step.new) changes.set(step.urn, { type: step.type, deleted: true, fields: [] });
    else {
      const fields = changedFields(userProperties(step.old?.outputs), userProperties(step.new.outputs));
      if (fields.length) changes.set(step.urn, { type: step.type, deleted: false, fields });
    }
  }
  return changes;
}

/** The first step the next `up` plans for each of the program's resources it would change, by URN. */
function plannedSteps(events: readonly EngineEvent[]): Map<string, StepMetadata> {
  const planned = new Map<string, StepMetadata>();
  for (const e of events) {
    const step = e.resourcePreEvent?.metadata as StepMetadata | undefined;
    if (step && !NO_CHANGE_OPS.has(step.op) && isUserResource(step.type) && !planned.has(step.urn)) planned.set(step.urn, step);
  }
  return planned;
}

function errorDiagnostics(events: readonly EngineEvent[]): { refusals: Refusal[]; errors: string[] } {
  const refusals: Refusal[] = [];
  const errors: string[] = [];
  for (const e of events) {
    const diag = e.diagnosticEvent;
    if (!diag || diag.severity !== "error") continue;
    const message = diag.message.trim();
    const codes = refusalCodesIn(message);
    for (const code of codes) refusals.push({ code, message, ...(diag.urn ? { urn: diag.urn } : {}) });
    if (!codes.length) errors.push(message);
  }
  return { refusals, errors };
}

/**
 * A resource's fields: state against live for a changed live object (with the declared value),
 * or state against declared for a declaration changed while the live object matches the state.
 */
function fieldsOf(refresh: RefreshChange | undefined, step: StepMetadata | undefined): FieldDrift[] {
  const declared = step?.new ? userProperties(step.new.inputs) : undefined;
  if (refresh && !refresh.deleted) {
    return refresh.fields.map((f) => ({
      field: f.field,
      ...("before" in f ? { state: f.before } : {}),
      ...("after" in f ? { live: f.after } : {}),
      ...(declared && f.field in declared ? { declared: maskSecrets(declared[f.field]) } : {}),
    }));
  }
  if (refresh || !step) return [];
  return changedFields(userProperties(step.old?.inputs), declared ?? {}).map((f) => ({
    field: f.field,
    ...("before" in f ? { state: f.before, live: f.before } : {}),
    ...("after" in f ? { declared: f.after } : {}),
  }));
}

function resourceDrifts(refreshed: Map<string, RefreshChange>, planned: Map<string, StepMetadata>): ResourceDrift[] {
  const urns = [...new Set([...refreshed.keys(), ...planned.keys()])].sort((a, b) => a.localeCompare(b));
  return urns.map((urn) => {
    const refresh = refreshed.get(urn);
    const step = planned.get(urn);
    return {
      urn,
      type: refresh?.type ?? step?.type ?? "",
      name: resourceNameOf(urn),
      live: refresh ? (refresh.deleted ? "deleted" : "modified") : "pending",
      plannedOp: step ? step.op : "none",
      fields: fieldsOf(refresh, step),
    };
  });
}

/** The `error: ` lines of a failed CLI run's text, else its last line: a message fit for a report. */
export function briefError(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  // The Automation API's CommandError puts "stderr: " before the first line of the CLI's stderr.
  const errorLine = /^(?:stderr:\s*)?error: /i;
  const errors = lines.filter((l) => errorLine.test(l)).map((l) => l.replace(errorLine, ""));
  const brief = errors.length ? [...new Set(errors)].join("; ") : (lines[lines.length - 1] ?? "the preview failed");
  return brief.length > 2000 ? `${brief.slice(0, 2000)}...` : brief;
}

/** `events` in the order the preview emitted them; `failure`: the text it failed with, if it did. */
export function classify(events: readonly EngineEvent[], failure?: string): Classification {
  const { refusals, errors } = errorDiagnostics(events);
  const resources = resourceDrifts(refreshChanges(events), plannedSteps(events));
  if (errors.length || (failure !== undefined && refusals.length === 0)) {
    const error = errors.length ? [...new Set(errors)].join("\n") : briefError(failure ?? "");
    return { class: "error", resources, refusals, error };
  }
  if (refusals.length) return { class: "drift-blocked", resources, refusals };
  return { class: resources.length ? "drift" : "clean", resources, refusals };
}
