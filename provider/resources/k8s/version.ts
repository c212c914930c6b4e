/**
 * Kubernetes version strings (`v<major>.<minor>.<patch>`), one definition of "malformed",
 * "downgrade" and "newer" for `check`, the upgrade planner and `diff`.
 */

/** A parsed Kubernetes version. */
export interface K8sVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** The documented shape, quoted in validation messages so users see what is expected. */
export const VERSION_SHAPE = "v<major>.<minor>.<patch>";

const VERSION_PATTERN = /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/**
 * Parses `v1.30.4`; undefined when the text does not have the documented shape (no leading
 * zeros, no pre-release suffix: the API shows none).
 */
export function parseVersion(text: string): K8sVersion | undefined {
  const m = VERSION_PATTERN.exec(text);
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

/** Negative when `a` is older than `b`, 0 when equal, positive when newer. */
export function compareVersions(a: K8sVersion, b: K8sVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** `v1.30.4`. */
export function formatVersion(v: K8sVersion): string {
  return `v${v.major}.${v.minor}.${v.patch}`;
}
