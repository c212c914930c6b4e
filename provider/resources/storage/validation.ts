/**
 * Input validation of StorageEvent, run by `check` (preview and up) without any API call.
 *
 * Why here and not left to the server: a wrong name or a limit of the wrong kind should fail
 * `pulumi preview` with a message naming the field and its allowed values, before anything is
 * written. Values the engine does not know yet (preview of a dependent input) are skipped.
 */
import { LIMIT_KIND_BY_EVENT, NOTIFICATION_EVENT_NAMES, type NotificationEventName } from "../../api";
import type { CheckFailure, CheckResult } from "../lifecycle";
import { INPUT_FIELDS, type StorageEventInputs } from "./types";

/** The event names whose limit is given in `kind`, e.g. bytes -> used space and used traffic. */
export function namesTakingLimit(kind: "bytes" | "count"): NotificationEventName[] {
  return NOTIFICATION_EVENT_NAMES.filter((n) => LIMIT_KIND_BY_EVENT[n] === kind);
}

/** True for a name the API accepts. */
export function isEventName(value: unknown): value is NotificationEventName {
  return typeof value === "string" && (NOTIFICATION_EVENT_NAMES as readonly string[]).includes(value);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : typeof value === "number" ? String(value) : `${JSON.stringify(value) ?? String(value)} (${typeof value})`;
}

const ALLOWED_NAMES = NOTIFICATION_EVENT_NAMES.join(", ");

function limitMeaning(kind: "bytes" | "count"): string {
  return kind === "bytes" ? "a number of bytes" : "a number of files or requests";
}

/** The inputs being checked, which of them are known (not a preview's placeholder), and where problems go. */
interface Checking {
  readonly news: Record<string, unknown>;
  known(field: string): boolean;
  fail(property: string, reason: string): void;
}

function checkName({ news, known, fail }: Checking): void {
  const name = news["name"];
  if (!known("name")) return;
  if (!present(name)) fail("name", `name is required: one of ${ALLOWED_NAMES}`);
  else if (!isEventName(name)) fail("name", `name must be one of ${ALLOWED_NAMES}; got ${shown(name)}`);
}

/**
 * `storageName` / `bucketName`, when given, are non-empty strings, and at least one is given: the
 * spec describes thresholds "of a storage or bucket"; one scoped to neither has no documented
 * meaning (refusing it can be relaxed later without breaking anyone).
 */
function checkScope({ news, known, fail }: Checking): void {
  for (const field of ["storageName", "bucketName"] as const) {
    const v = news[field];
    if (known(field) && present(v) && (typeof v !== "string" || v.trim() === "")) {
      const what = field === "storageName" ? "the storage" : "the bucket";
      fail(field, `${field} must be a non-empty string naming ${what} the threshold applies to; got ${shown(v)}`);
    }
  }
  if (known("storageName") && known("bucketName") && !present(news["storageName"]) && !present(news["bucketName"])) {
    fail(
      "storageName",
      "set storageName, bucketName or both: a notification threshold applies to a storage or a bucket, and an event scoped to neither is not accepted",
    );
  }
}

/** Limits are non-negative integers (uint64 on the wire, safe integers here). */
function checkLimitValues({ news, known, fail }: Checking): void {
  for (const field of ["bytes", "count"] as const) {
    const v = news[field];
    if (known(field) && present(v) && !(typeof v === "number" && Number.isSafeInteger(v) && v >= 0)) {
      fail(field, `${field} must be a non-negative integer (${limitMeaning(field)}); got ${shown(v)}`);
    }
  }
}

/** The limit that goes with `name` is given (`bytes` for used space/traffic, `count` for files/requests), the other not. */
function checkLimitKind({ news, known, fail }: Checking): void {
  const name = news["name"];
  if (!known("name") || !isEventName(name)) return;
  const kind = LIMIT_KIND_BY_EVENT[name];
  const other = kind === "bytes" ? "count" : "bytes";
  const otherGiven = known(other) && present(news[other]);
  if (otherGiven) {
    fail(
      other,
      `${other} goes with ${namesTakingLimit(other).join(" and ")} only; ${name} takes its limit in ${kind} (${limitMeaning(kind)}), so set ${kind} instead of ${other}`,
    );
  }
  // When the other kind is given, its message already says to set this one instead.
  if (known(kind) && !present(news[kind]) && !otherGiven) {
    fail(kind, `${name} needs a limit: set ${kind} (${limitMeaning(kind)}, a non-negative integer); ${kind} goes with ${namesTakingLimit(kind).join(" and ")}`);
  }
}

/** `clientId`, when given, is a positive integer; `adoptUuid` a non-empty string (create checks that it names this event). */
function checkClientAndAdoption({ news, known, fail }: Checking): void {
  const clientId = news["clientId"];
  if (known("clientId") && present(clientId) && !(typeof clientId === "number" && Number.isSafeInteger(clientId) && clientId > 0)) {
    fail("clientId", `clientId must be a positive integer (the id of the client to act for); got ${shown(clientId)}`);
  }
  const adoptUuid = news["adoptUuid"];
  if (known("adoptUuid") && present(adoptUuid) && (typeof adoptUuid !== "string" || adoptUuid.trim() === "")) {
    fail("adoptUuid", `adoptUuid must be the uuid of an existing event to take over (a non-empty string); got ${shown(adoptUuid)}`);
  }
}

/** The rules, in the order their failures are reported. */
const RULES = [checkName, checkScope, checkLimitValues, checkLimitKind, checkClientAndAdoption];

/**
 * Validates StorageEvent inputs, each problem reported on the field it concerns (the rules
 * above); returns the inputs restricted to the known fields (unknown values passed through).
 */
export function checkStorageEventInputs(news: Record<string, unknown>, unknown: ReadonlySet<string>): CheckResult<StorageEventInputs> {
  const failures: CheckFailure[] = [];
  const checking: Checking = { news, known: (field) => !unknown.has(field), fail: (property, reason) => void failures.push({ property, reason }) };
  for (const rule of RULES) rule(checking);
  const inputs = Object.fromEntries(INPUT_FIELDS.filter((field) => present(news[field])).map((field) => [field, news[field]]));
  return { inputs: inputs as unknown as StorageEventInputs, failures };
}
