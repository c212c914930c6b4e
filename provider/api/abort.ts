/**
 * One AbortSignal that aborts when any of several does.
 *
 * Why a helper: a request is cancelled by its caller and by the operation it belongs to (Ctrl-C,
 * `customTimeouts`); Node has `AbortSignal.any` from 20.3, the package supports Node 20.0, and
 * the typings in use predate it. The fallback keeps the first abort's reason, as `any` does.
 */

type AnySignal = (signals: AbortSignal[]) => AbortSignal;

const nativeAny = (AbortSignal as unknown as { any?: AnySignal }).any?.bind(AbortSignal);

function fallbackAny(signals: AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  const aborted = signals.find((s) => s.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return controller.signal;
  }
  const onAbort = (event: Event): void => {
    for (const s of signals) s.removeEventListener("abort", onAbort);
    controller.abort((event.target as AbortSignal).reason);
  };
  for (const s of signals) s.addEventListener("abort", onAbort, { once: true });
  return controller.signal;
}

/** A signal that aborts, with the same reason, as soon as one of `signals` aborts. */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  return nativeAny ? nativeAny(signals) : fallbackAny(signals);
}
