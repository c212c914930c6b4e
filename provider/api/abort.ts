/**
 * Why a helper: a request is cancelled by its caller and by the operation it belongs to (Ctrl-C,
 * `customTimeouts`). Node (>= 20.3, the package needs 20.19) has `AbortSignal.any`, but the
 * `@types/node` in use predates it, so it is typed here once.
 */

type AnySignal = (signals: AbortSignal[]) => AbortSignal;

const nativeAny = (AbortSignal as unknown as { any: AnySignal }).any.bind(AbortSignal);

/** Aborts, with the same reason, as soon as one of `signals` does. */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  return nativeAny(signals);
}
