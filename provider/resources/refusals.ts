/**
 * Stable codes of the provider's refusals to converge a resource to its declaration, so a
 * pipeline (and `cloudplatform-drift`) tells "the provider refuses" from "the run failed" without
 * matching wording. Each refusal message ends with its code, `[CLOUDPLATFORM_DOWNGRADE]`, on
 * both paths. A code never changes meaning; new ones may be added (docs/guides/drift-in-ci.md).
 */

/** Every refusal code, with what it means (the guide's table is written from this). */
export const REFUSAL_CODES = {
  CLOUDPLATFORM_DOWNGRADE: "the declared version is older than the version the cluster runs; a cluster is never downgraded",
  CLOUDPLATFORM_UPGRADE_UNREACHABLE: "the declared version cannot be reached from the live version by the permitted upgrade steps",
  CLOUDPLATFORM_VERSION_UNPLANNABLE: "the cluster reports a version of an unknown shape, so no upgrade can be planned",
  CLOUDPLATFORM_CLUSTER_NOT_FOUND: "the cluster the resource names does not exist; this resource never creates or deletes clusters",
  CLOUDPLATFORM_QUOTA: "the project's quota cannot hold the second copy of a pool that the upgrade's rolling replacement needs",
  CLOUDPLATFORM_UPGRADE_LOCK_UNCLEAR: "it cannot be told whether an upgrade of the cluster already runs, so none is started",
  CLOUDPLATFORM_EVENT_NOT_OWNED: "an event with the declared identity exists and this resource does not own it (made elsewhere or by another stack)",
  CLOUDPLATFORM_ADOPTION_MISMATCH: "adoptUuid names an event that is missing or has another identity",
} as const;

/** One refusal code. */
export type RefusalCode = keyof typeof REFUSAL_CODES;

/** `message` ending with its code, the one form every refusal message takes. */
export function withRefusalCode(code: RefusalCode, message: string): string {
  return `${message} [${code}]`;
}

/** The refusal codes a message carries, in order, each once; an unknown bracketed word is not one. */
export function refusalCodesIn(message: string): RefusalCode[] {
  const found = new Set<RefusalCode>();
  for (const m of message.matchAll(/\[(CLOUDPLATFORM_[A-Z_]+)\]/g)) {
    const code = m[1] as string;
    if (Object.prototype.hasOwnProperty.call(REFUSAL_CODES, code)) found.add(code as RefusalCode);
  }
  return [...found];
}
