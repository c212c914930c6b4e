/**
 * The next upgrade step, or why the target cannot be reached; pure, since preview and every
 * step decide the same. `upgrade_versions` lists only the versions permitted now, so whether a
 * multi-step target's exact patch is offered is learnt only at the last step.
 */
import { withRefusalCode } from "../refusals";
import { compareVersions, formatVersion, parseVersion, VERSION_SHAPE } from "./version";

export type UpgradeDecision =
  | { readonly kind: "at-target" }
  /** Upgrade to `version`; `final` when that is the target itself. */
  | { readonly kind: "step"; readonly version: string; readonly final: boolean }
  /** The target cannot be reached; `reason` names the current and permitted versions. */
  | { readonly kind: "rejected"; readonly why: "downgrade" | "unreachable" | "malformed"; readonly reason: string };

/** The facts a decision is made from. */
export interface PlanInput {
  readonly clusterName: string;
  readonly current: string;
  readonly target: string;
  /** `upgrade_versions` as returned now. */
  readonly permitted: readonly string[];
  readonly allowMultiStep: boolean;
}

/** `v1.31.2` / `v1.31.2, v1.31.3` / `none (no upgrade is available)`, for messages. */
export function describePermitted(permitted: readonly string[]): string {
  return permitted.length ? permitted.join(", ") : "none (no upgrade is available)";
}

/** The newest permitted version of the target's major with a minor below the target's. */
function stepTowards(current: string, target: string, permitted: readonly string[]): string | undefined {
  const cur = parseVersion(current);
  const tgt = parseVersion(target);
  if (!cur || !tgt || cur.major !== tgt.major || tgt.minor <= cur.minor) return undefined;
  const candidates = permitted
    .map(parseVersion)
    .filter((p): p is NonNullable<typeof p> => p !== undefined)
    .filter((p) => p.major === tgt.major && p.minor < tgt.minor && compareVersions(p, cur) > 0)
    .sort(compareVersions);
  const best = candidates[candidates.length - 1];
  return best ? formatVersion(best) : undefined;
}

/** Decides the next step. */
export function planNextStep(p: PlanInput): UpgradeDecision {
  const { clusterName, current, target, permitted, allowMultiStep } = p;
  if (current === target) return { kind: "at-target" };
  const cur = parseVersion(current);
  const tgt = parseVersion(target);
  const allowed = describePermitted(permitted);
  if (!tgt) {
    return { kind: "rejected", why: "malformed", reason: `version "${target}" must have the shape ${VERSION_SHAPE}, e.g. v1.31.2` };
  }
  if (!cur) {
    return {
      kind: "rejected",
      why: "malformed",
      reason: withRefusalCode(
        "CLOUDPLATFORM_VERSION_UNPLANNABLE",
        `cluster ${clusterName} reports version "${current}", which is not of the shape ${VERSION_SHAPE}; cannot plan an upgrade to ${target}`,
      ),
    };
  }
  if (compareVersions(tgt, cur) < 0) {
    return {
      kind: "rejected",
      why: "downgrade",
      reason: withRefusalCode(
        "CLOUDPLATFORM_DOWNGRADE",
        `version ${target} is a downgrade: cluster ${clusterName} runs ${current} and a cluster is never downgraded. ` +
          `Permitted next versions: ${allowed}. Set version to ${current} or a permitted newer version.`,
      ),
    };
  }
  if (permitted.includes(target)) return { kind: "step", version: target, final: true };
  const towards = stepTowards(current, target, permitted);
  if (allowMultiStep && towards) return { kind: "step", version: towards, final: false };
  const hint = !allowMultiStep && towards ? " Set allowMultiStep: true to step through the intermediate minor versions." : "";
  const how = allowMultiStep ? "" : " in one step";
  return {
    kind: "rejected",
    why: "unreachable",
    reason: withRefusalCode(
      "CLOUDPLATFORM_UPGRADE_UNREACHABLE",
      `version ${target} cannot be reached${how} from ${current}: cluster ${clusterName} may be upgraded now only to ${allowed} ` +
        `(one minor version at a time).${hint}`,
    ),
  };
}
