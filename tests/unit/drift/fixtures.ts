/**
 * Engine events as a refresh-preview emits them (trimmed from a recorded run of
 * tests/integration/drift.test.ts: one event changed, one deleted, a cluster refused), and a
 * report built from them, for the drift unit tests.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import type { DriftReport, ListingError, StackResult } from "../../../provider/drift/report";

const EVENT_TYPE = "pulumi-nodejs:dynamic/cloudplatform:StorageEvent";
export const URN = (name: string, type = EVENT_TYPE) => `urn:pulumi:test::drift::${type}::${name}`;
const PROVIDER = "exports.handler = __f0; // serialized provider";

let seq = 0;
function event(body: Partial<EngineEvent>): EngineEvent {
  return { sequence: seq++, timestamp: 0, ...body } as EngineEvent;
}

/** A refresh result: `before` (the state) and `after` (live; null when gone). */
export function refreshed(name: string, before: Record<string, unknown>, after: Record<string, unknown> | null, type = EVENT_TYPE): EngineEvent {
  const state = (outputs: Record<string, unknown>) => ({ type, urn: URN(name, type), inputs: { ...outputs, __provider: PROVIDER }, outputs: { ...outputs, __provider: PROVIDER } });
  return event({ resOutputsEvent: { metadata: { op: "refresh", urn: URN(name, type), type, old: state(before), new: after ? state(after) : null, provider: "" } } as any });
}

/** A planned step: `old` inputs (after refresh) to `declared` inputs. */
export function step(op: string, name: string, old: Record<string, unknown> | null, declared: Record<string, unknown>, type = EVENT_TYPE): EngineEvent {
  return event({
    resourcePreEvent: {
      metadata: { op, urn: URN(name, type), type, old: old ? { inputs: { ...old, __provider: PROVIDER }, outputs: old } : null, new: { inputs: { ...declared, __provider: PROVIDER }, outputs: {} }, provider: "" },
    } as any,
  });
}

export function diagnostic(severity: string, message: string, urn?: string): EngineEvent {
  return event({ diagnosticEvent: { severity, message, color: "never", ...(urn ? { urn } : {}) } as any });
}

/** A report with one stack of each class. */
export function sampleReport(): DriftReport {
  const base = { cwd: "/p", project: "shop", startedAt: "2026-11-26T19:00:00.000Z", durationMs: 1500 };
  const stacks: StackResult[] = [
    { ...base, stack: "eu", class: "clean", resources: [], refusals: [] },
    {
      ...base,
      stack: "us",
      class: "drift",
      refusals: [],
      resources: [
        { urn: URN("space"), type: EVENT_TYPE, name: "space", live: "modified", plannedOp: "update", fields: [{ field: "bytes", state: 1000, live: 7, declared: 1000 }] },
        { urn: URN("traffic"), type: EVENT_TYPE, name: "traffic", live: "deleted", plannedOp: "create", fields: [] },
      ],
    },
    {
      ...base,
      stack: "asia",
      class: "drift-blocked",
      resources: [],
      refusals: [{ code: "CLOUDPLATFORM_DOWNGRADE", urn: URN("demo"), message: "version v1.30.4 is a downgrade <&> [CLOUDPLATFORM_DOWNGRADE]" }],
    },
    { ...base, stack: "ap", class: "error", resources: [], refusals: [], error: "GET /x failed (401): key | invalid" },
  ];
  return {
    formatVersion: 1,
    tool: "cloudplatform-drift",
    startedAt: base.startedAt,
    durationMs: 4000,
    counts: { clean: 1, drift: 1, "drift-blocked": 1, error: 1 },
    exitCode: 2,
    listingErrors: [],
    stacks,
  };
}

/** A project directory whose stacks could not be listed. */
export const LISTING_ERROR: ListingError = { cwd: "/p/infra", error: "no stack is selected in /p/infra: pass --stack NAME or --all-stacks" };
