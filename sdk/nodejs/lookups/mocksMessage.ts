/**
 * Keeps the message of an error the mocks' `call` throws (internal; not re-exported).
 *
 * Why: Pulumi's `MockMonitor.invoke` hands what `call` threw to the callback of
 * `pulumi.runtime.invoke` as it is, and that callback builds the caller's error from the gRPC
 * field `details` alone (`new Error(err.details)`), which a thrown `Error` does not have: the
 * message is lost. The monitor's callback is the last place that still holds it, so under mocks
 * the monitor's `invoke` is wrapped once to copy the message into `details` for this package's
 * functions (an error that already has `details` is passed on unchanged).
 */
import { messageOf as errorMessageOf } from "../../../provider/api/errors";

/** The monitor's `invoke`, as `pulumi.runtime.invoke` calls it. */
type InvokeCallback = (err: unknown, response: unknown) => void;
interface MockMonitorLike {
  invoke(req: { getTok(): string }, callback: InvokeCallback): unknown;
}

/** Marks a monitor whose `invoke` is already wrapped. */
const WRAPPED = Symbol.for("pulumi-cloudplatform.keepsMocksMessages");

/** What `pulumi.runtime.invoke` reads: a fresh error whose `details` hold the message. */
function withDetails(thrown: unknown): unknown {
  if (thrown !== null && typeof thrown === "object" && typeof (thrown as { details?: unknown }).details === "string") return thrown;
  const message = errorMessageOf(thrown);
  return Object.assign(new Error(message), { details: message });
}

/**
 * Wraps `monitor.invoke` (a MockMonitor's) once, so that an error thrown by the mocks' `call`
 * for a function whose token starts with `tokenPrefix` reaches the lookup with its message.
 */
export function keepMocksMessages(monitor: unknown, tokenPrefix: string): void {
  const m = monitor as MockMonitorLike & { [WRAPPED]?: true };
  if (m === null || typeof m !== "object" || typeof m.invoke !== "function" || m[WRAPPED]) return;
  const invoke = m.invoke.bind(m);
  m.invoke = (req, callback) =>
    invoke(req, (err, response) => callback(err && req.getTok().startsWith(tokenPrefix) ? withDetails(err) : err, response));
  m[WRAPPED] = true;
}
