/**
 * One attempt of a request: sent, mapped, and on failure judged once.
 *
 * Why the key is scrubbed here: this is where the server's words and the network's errors
 * enter the transport, so a failure leaves this module without the key, and the retry loop, the
 * pacer, the log and the caller's error never have to scrub again.
 */
import { AttemptFailed, type AttemptFailure } from "./attemptFailure";
import type { MappingOptions } from "./clientOptions";
import { CloudPlatformError, messageOf } from "./errors";
import type { HttpAttempt } from "./httpAttempt";
import { mapAnswer } from "./responseMapping";
import { classifyFailure, type RetryPolicy } from "./retry";
import type { ApiResponse, RequestSpec } from "./transport";

/** What an attempt needs besides the HTTP part: the mapping's options, the policy that judges, the key's scrubber. */
export interface AttemptOptions {
  readonly mapping: MappingOptions;
  readonly policy: RetryPolicy;
  readonly now: () => number;
  readonly scrub: <T>(value: T) => T;
}

/** Sends one attempt of `spec`; a failure rejects as {@link AttemptFailed}, scrubbed and judged. */
export type Attempt = <T>(spec: RequestSpec<T>, shownPath: string) => Promise<ApiResponse<T>>;

/** An attempt over `http`: its answer mapped to data, or to a failure judged by the policy. */
export function createAttempt(http: HttpAttempt, o: AttemptOptions): Attempt {
  const judged = (method: RequestSpec["method"], raw: AttemptFailure): AttemptFailed => {
    const failure = o.scrub(raw);
    return new AttemptFailed(failure, classifyFailure(method, failure, o.policy));
  };
  return async <T>(spec: RequestSpec<T>, shownPath: string): Promise<ApiResponse<T>> => {
    try {
      const answer = await http(spec, shownPath);
      if ("kind" in answer) throw judged(spec.method, answer);
      const mapped = mapAnswer({ ...answer, ...o.mapping, method: spec.method, path: shownPath, response: spec.response, nowMs: o.now() });
      if (!mapped.ok) throw judged(spec.method, mapped.failure);
      return { method: spec.method, path: shownPath, status: answer.status, data: mapped.data, header: answer.header };
    } catch (err) {
      if (err instanceof AttemptFailed || err instanceof CloudPlatformError) throw err;
      // A bug of the client (a schema's transform that threw): it may quote anything.
      throw new CloudPlatformError(o.scrub(messageOf(err)));
    }
  };
}
