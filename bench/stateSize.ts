/**
 * Measurement 1: bytes of the serialized `__provider` and of the whole state entry, per
 * resource, for each resource class, from `stack.exportStack()`.
 *
 * Why it matters: Pulumi stores the serialized provider in every resource's inputs *and*
 * outputs; a provider that captures a client library copies it into every resource. The state
 * size per resource is what a user's backend pays.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { bytes, stateResources } from "./common";
import type { Section } from "./report";

/** Sizes measured for one resource class. */
export interface ClassStateSize {
  className: string;
  resources: number;
  /** Bytes of `inputs.__provider` (its JSON when it is a secret envelope), the largest seen. */
  providerBytes: number;
  /** Whether `__provider` is stored in the outputs too. */
  providerInOutputs: boolean;
  /** Whether every resource of the class stores the same provider text. */
  providerShared: boolean;
  /** Whether `__provider` is stored as a secret (encrypted). */
  providerSecret: boolean;
  /** Average bytes of one resource's JSON state entry. */
  stateBytesPerResource: number;
  /** Average bytes of that entry without the two copies of `__provider`. */
  stateBytesWithoutProvider: number;
}

const LIMIT_BYTES = 4 * 1024;

function providerText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? "");
}

/**
 * Reads the state of a stack and sums the sizes of the resources of the given class (type name
 * after the last `:`); `label` names the row (the plugin's StorageEvent beside the dynamic one).
 */
export async function measureStateSize(stack: Stack, className: string, label = className): Promise<ClassStateSize> {
  const all = await stateResources(stack);
  const mine = all.filter((r) => String(r.type).endsWith(`:${className}`));
  if (mine.length === 0) throw new Error(`no ${className} resources in the state (types: ${[...new Set(all.map((r) => r.type))].join(", ")})`);
  const providers = mine.map((r) => (r.inputs?.__provider === undefined ? "" : providerText(r.inputs.__provider)));
  const total = mine.reduce((sum, r) => sum + JSON.stringify(r).length, 0);
  const withoutProvider = mine.reduce((sum, r) => {
    const { __provider: _a, ...inputs } = r.inputs ?? {};
    const { __provider: _b, ...outputs } = r.outputs ?? {};
    return sum + JSON.stringify({ ...r, inputs, outputs }).length;
  }, 0);
  return {
    className: label,
    resources: mine.length,
    providerBytes: Math.max(...providers.map((p) => Buffer.byteLength(p))),
    providerInOutputs: mine.every((r) => r.outputs?.__provider !== undefined),
    providerShared: new Set(providers).size === 1,
    providerSecret: mine.some((r) => typeof r.inputs?.__provider === "object"),
    stateBytesPerResource: Math.round(total / mine.length),
    stateBytesWithoutProvider: Math.round(withoutProvider / mine.length),
  };
}

/** The report section from the sizes measured during the other runs. */
export function stateSizeSection(sizes: ClassStateSize[], errors: string[]): Section {
  const section: Section = {
    title: "1. Serialized provider and state size per resource",
    method:
      "From `stack.exportStack()` after `pulumi up`: the bytes of `inputs.__provider` of one resource and the average JSON size of one resource's state entry (inputs, outputs, URN, metadata).",
    tables: [
      {
        headers: ["Resource class", "Resources", "`__provider` per resource", "Target", "Result", "State per resource", "State without `__provider`", "Stored in outputs too", "Same text for all"],
        rows: [],
      },
    ],
    notes: [],
    targets: [],
  };
  for (const s of sizes) {
    const real = s.className !== "Noop";
    const ok = s.providerBytes < LIMIT_BYTES;
    section.tables[0]!.rows.push([
      real ? s.className : "Noop (baseline)",
      String(s.resources),
      s.providerBytes === 0 ? "none" : bytes(s.providerBytes) + (s.providerSecret ? " (secret)" : ""),
      real ? (s.providerBytes === 0 ? "none" : "< 4 KB") : "n/a",
      real ? (ok ? "OK" : "MISSED") : "INFO",
      bytes(s.stateBytesPerResource),
      bytes(s.stateBytesWithoutProvider),
      s.providerBytes === 0 ? "n/a" : s.providerInOutputs ? "yes" : "no",
      s.providerBytes === 0 ? "n/a" : s.providerShared ? "yes" : "no",
    ]);
    if (real && s.providerBytes === 0) {
      section.targets.push({ target: `${s.className} stores no __provider`, verdict: "OK", why: `${bytes(s.stateBytesPerResource)} of state per resource, nothing serialized` });
    } else if (real) {
      section.targets.push({
        target: `${s.className} __provider < 4 KB`,
        verdict: ok ? "OK" : "MISSED",
        why: ok ? `${s.providerBytes} B` : `${s.providerBytes} B: the serializer captured more than the call-time require of the runtime module`,
      });
    }
  }
  section.notes.push(
    "The plugin's StorageEvent (`cloudplatform:index:StorageEvent`) stores no `__provider`: the engine starts the installed plugin by its package name, so state holds only the inputs and outputs.",
  );
  section.notes.push(
    "Pulumi stores `__provider` twice per resource (inputs and outputs), so the state cost of the provider is about twice the figure in the third column.",
  );
  if (sizes.some((s) => s.providerSecret)) {
    section.notes.push("A secret `__provider` means something secret was captured by the serializer (the API key must never be).");
  }
  for (const e of errors) {
    section.notes.push(`ERROR: ${e}`);
    section.targets.push({ target: "state size measured", verdict: "ERROR", why: e });
  }
  return section;
}
