/**
 * K8sClusterUpgrade's input checks that need no API. Why separate from the live check: it must
 * run for every preview, including one where some inputs are still unknown, and never need the
 * network.
 */
import type { CheckFailure } from "../lifecycle";
import { withInputDefaults, type K8sClusterUpgradeInputs } from "./types";
import { parseVersion, VERSION_SHAPE } from "./version";

/** Result of {@link validateInputs}: normalized inputs (unknowns passed through) and problems. */
export interface ValidatedInputs {
  readonly inputs: K8sClusterUpgradeInputs;
  readonly failures: CheckFailure[];
}

/** The longest watch after an upgrade: a day (a longer one is more likely a unit mistake). */
export const MAX_SOAK_SECONDS = 86_400;

function isSoakSeconds(v: unknown): boolean {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX_SOAK_SECONDS;
}

function positiveInteger(name: string, value: unknown, failures: CheckFailure[]): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    failures.push({ property: name, reason: `${name} must be a positive integer, got ${JSON.stringify(value) ?? "nothing"}` });
  }
}

/** Fills the defaults; inputs in `unknown` hold the engine's preview placeholder and are not judged. */
export function validateInputs(news: Record<string, unknown>, unknown: ReadonlySet<string>): ValidatedInputs {
  const failures: CheckFailure[] = [];
  const known = (name: string): boolean => !unknown.has(name);

  if (known("projectId")) positiveInteger("projectId", news["projectId"], failures);
  if (known("regionId")) positiveInteger("regionId", news["regionId"], failures);
  if (known("clusterName")) {
    const v = news["clusterName"];
    if (typeof v !== "string" || v.trim() === "") {
      failures.push({ property: "clusterName", reason: "clusterName must be the cluster's name (a non-empty string)" });
    } else if (v.includes("/")) {
      failures.push({ property: "clusterName", reason: `clusterName "${v}" must not contain "/"` });
    }
  }
  if (known("version")) {
    const v = news["version"];
    if (typeof v !== "string" || !parseVersion(v)) {
      failures.push({
        property: "version",
        reason: `version must have the shape ${VERSION_SHAPE} (e.g. v1.31.2), got ${JSON.stringify(v) ?? "nothing"}`,
      });
    }
  }
  const allowMultiStep = news["allowMultiStep"];
  if (allowMultiStep != null && known("allowMultiStep") && typeof allowMultiStep !== "boolean") {
    failures.push({ property: "allowMultiStep", reason: `allowMultiStep must be true or false, got ${JSON.stringify(allowMultiStep)}` });
  }
  const timeoutMinutes = news["timeoutMinutes"];
  if (timeoutMinutes != null && known("timeoutMinutes") && (typeof timeoutMinutes !== "number" || !Number.isFinite(timeoutMinutes) || timeoutMinutes <= 0)) {
    failures.push({ property: "timeoutMinutes", reason: `timeoutMinutes must be a positive number of minutes, got ${JSON.stringify(timeoutMinutes)}` });
  }
  const soakSeconds = news["soakSeconds"];
  if (soakSeconds != null && known("soakSeconds") && !isSoakSeconds(soakSeconds)) {
    failures.push({ property: "soakSeconds", reason: `soakSeconds must be a whole number of seconds from 0 to ${MAX_SOAK_SECONDS} (a day), got ${JSON.stringify(soakSeconds)}` });
  }
  // Other keys (e.g. the SDK's output-only properties passed as undefined) are dropped, not
  // judged: the SDK's typed arguments already keep users from misspelling an input.

  const inputs = withInputDefaults({
    projectId: news["projectId"],
    regionId: news["regionId"],
    clusterName: news["clusterName"],
    version: news["version"],
    allowMultiStep,
    timeoutMinutes,
    soakSeconds,
  }) as K8sClusterUpgradeInputs;
  return { inputs, failures };
}
