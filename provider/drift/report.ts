/**
 * The drift report, the one structure every output (terminal, JSON, Markdown, JUnit) is rendered
 * from, so each shows the same facts. The JSON file is a public, versioned format: its schema is
 * docs/guides/drift-report.schema.json.
 */
import type { RefusalCode } from "../resources/refusals";

/** Version of the JSON report's format; bumped on any incompatible change. */
export const REPORT_FORMAT_VERSION = 1;

/** What a stack's refresh-preview showed, worst last. */
export type StackClass = "clean" | "drift" | "drift-blocked" | "error";

/** One field whose recorded value differs from the live one. */
export interface FieldDrift {
  /** The property name as the program writes it (`bytes`, `version`). */
  readonly field: string;
  /** The value the stack's state records (`[secret]` for a secret; absent when unset). */
  readonly state?: unknown;
  /** The value the platform reports now (`[secret]` for a secret; absent when unset). */
  readonly live?: unknown;
  /** The value the program declares, which the next `up` writes (absent when it is not an input). */
  readonly declared?: unknown;
}

/** One resource whose state and live object differ, or that the next `up` would change. */
export interface ResourceDrift {
  readonly urn: string;
  readonly type: string;
  readonly name: string;
  /** `pending`: the live object matches the state, but the program's declaration changed. */
  readonly live: "modified" | "deleted" | "pending";
  /** What the next `up` would do: `update`, `create`, `replace`, `delete`, or `none`. */
  readonly plannedOp: string;
  readonly fields: readonly FieldDrift[];
}

/** A refusal of the provider to converge a resource. */
export interface Refusal {
  readonly code: RefusalCode;
  /** The resource's URN, when the engine named one. */
  readonly urn?: string;
  readonly message: string;
}

/** The result of one stack. */
export interface StackResult {
  /** The project directory (`--cwd`). */
  readonly cwd: string;
  readonly project: string;
  readonly stack: string;
  readonly class: StackClass;
  readonly resources: readonly ResourceDrift[];
  readonly refusals: readonly Refusal[];
  /** Why the stack errored (class `error` only). */
  readonly error?: string;
  /** Its preview did not finish within `--preview-timeout` and was stopped (class `error`). */
  readonly timedOut?: true;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly durationMs: number;
}

/** A project directory whose stacks could not be listed: none of them was previewed, so the run fails. */
export interface ListingError {
  /** The project directory (`--cwd`). */
  readonly cwd: string;
  readonly error: string;
  /** The listing did not answer within `--list-timeout` and was stopped. */
  readonly timedOut?: true;
  /** The state backend that did not answer, its password redacted (with `timedOut`). */
  readonly backend?: string;
}

/** The whole run. */
export interface DriftReport {
  readonly formatVersion: typeof REPORT_FORMAT_VERSION;
  readonly tool: "cloudplatform-drift";
  readonly startedAt: string;
  readonly durationMs: number;
  /** `I/N` when the run was one shard of several. */
  readonly shard?: { readonly index: number; readonly count: number };
  readonly counts: Readonly<Record<StackClass, number>>;
  readonly exitCode: 0 | 1 | 2;
  readonly listingErrors: readonly ListingError[];
  readonly stacks: readonly StackResult[];
}

/** Exit status of a run: 2 when a project's stacks could not be listed or a stack errored, else 1 when any drifted, else 0. */
export function exitCodeOf(stacks: readonly Pick<StackResult, "class">[], listingErrors: readonly ListingError[]): 0 | 1 | 2 {
  if (listingErrors.length || stacks.some((s) => s.class === "error")) return 2;
  if (stacks.some((s) => s.class === "drift" || s.class === "drift-blocked")) return 1;
  return 0;
}

/** Every class is present, zero or not, as the JSON schema requires. */
export function countByClass(stacks: readonly Pick<StackResult, "class">[]): Record<StackClass, number> {
  const counts: Record<StackClass, number> = { clean: 0, drift: 0, "drift-blocked": 0, error: 0 };
  for (const s of stacks) counts[s.class]++;
  return counts;
}

/** `project/stack`, the name a stack goes by in every output and in the shard hash. */
export function stackKey(s: { readonly project: string; readonly stack: string }): string {
  return `${s.project}/${s.stack}`;
}

/**
 * The resource name a URN ends with (`urn:pulumi:stack::project::type::name`): everything after
 * the third `::`, as Pulumi reads it, since a name may itself contain `::`.
 */
export function resourceNameOf(urn: string): string {
  const parts = urn.split("::");
  return parts.length < 4 ? urn : parts.slice(3).join("::");
}
