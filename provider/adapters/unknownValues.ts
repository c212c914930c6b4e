/**
 * The engine's unknown values, as both adapters receive them.
 *
 * Why shared: during a preview an input that depends on another resource's output reaches the
 * dynamic provider and the plugin as the same sentinel string. Lifecycles never see the
 * sentinel's meaning; they get the set of input names not known yet ({@link unknownInputs}) and
 * skip every API question about those, on both paths alike.
 */

/** The engine's placeholder for a value not known during preview. */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN_VALUE) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** Top-level input names whose value (or a part of it) is not known yet. */
export function unknownInputs(inputs: Record<string, unknown>): Set<string> {
  return new Set(Object.keys(inputs).filter((k) => containsUnknown(inputs[k])));
}
