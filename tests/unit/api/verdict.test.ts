/**
 * One verdict per failed attempt (provider/api/retry.ts `classifyFailure`): what it says for
 * each kind of failure, that the caller's error and the write guard agree with it, and that the
 * retry loop and the pacer act on the verdict rather than looking at the failure again.
 */
import { ConnectionError, DEFAULT_RETRY_POLICY, ServerError, type HttpMethod } from "../../../provider/api";
import { AttemptFailed, publicError, type AttemptFailure, type FailureVerdict } from "../../../provider/api/attemptFailure";
import type { RetryLoopOptions } from "../../../provider/api/clientOptions";
import { RequestPacer } from "../../../provider/api/pacing";
import { classifyFailure, resolveRetryPolicy } from "../../../provider/api/retry";
import { withRetries } from "../../../provider/api/retryLoop";
import type { ApiResponse, RequestSpec } from "../../../provider/api/transport";
import { isAmbiguousWrite } from "../../../provider/resources/writeAttempts";
import { failed } from "./failureRecords";

type Kind = (method: HttpMethod) => AttemptFailure;
type Expected = Pick<FailureVerdict, "counts" | "pauseMs" | "mayHaveActed"> & { readonly getRetried: boolean; readonly postRetried: boolean };

/** Default policy (base delay 500 ms). */
const KINDS: ReadonlyArray<readonly [string, Kind, Expected]> = [
  ["a 429 whose Retry-After paces us", (m) => failed.status(m, 429, 2000), { counts: false, pauseMs: 2000, mayHaveActed: false, getRetried: true, postRetried: true }],
  ["a 429 asking for less than the base delay", (m) => failed.status(m, 429, 300), { counts: true, pauseMs: 300, mayHaveActed: false, getRetried: true, postRetried: true }],
  ["a 429 asking for no wait", (m) => failed.status(m, 429, 0), { counts: true, pauseMs: undefined, mayHaveActed: false, getRetried: true, postRetried: true }],
  ["a 429 without Retry-After", (m) => failed.status(m, 429), { counts: true, pauseMs: undefined, mayHaveActed: false, getRetried: true, postRetried: true }],
  ["a 503 with Retry-After", (m) => failed.status(m, 503, 5000), { counts: true, pauseMs: undefined, mayHaveActed: true, getRetried: true, postRetried: false }],
  ["a 504", (m) => failed.status(m, 504), { counts: true, pauseMs: undefined, mayHaveActed: true, getRetried: true, postRetried: false }],
  ["a 408", (m) => failed.status(m, 408), { counts: true, pauseMs: undefined, mayHaveActed: false, getRetried: true, postRetried: false }],
  ["a 409", (m) => failed.status(m, 409), { counts: true, pauseMs: undefined, mayHaveActed: false, getRetried: false, postRetried: false }],
  ["a refused connection", (m) => failed.network(m, "ECONNREFUSED"), { counts: true, pauseMs: undefined, mayHaveActed: false, getRetried: true, postRetried: true }],
  ["a DNS failure", (m) => failed.network(m, "ENOTFOUND"), { counts: true, pauseMs: undefined, mayHaveActed: false, getRetried: true, postRetried: true }],
  ["a reset connection", (m) => failed.network(m, "ECONNRESET"), { counts: true, pauseMs: undefined, mayHaveActed: true, getRetried: true, postRetried: false }],
  ["a timeout", (m) => failed.network(m, "ETIMEDOUT"), { counts: true, pauseMs: undefined, mayHaveActed: true, getRetried: true, postRetried: false }],
  ["a malformed answer", (m) => failed.format(m), { counts: true, pauseMs: undefined, mayHaveActed: true, getRetried: true, postRetried: false }],
  ["an answer over the size cap", (m) => failed.format(m, true), { counts: true, pauseMs: undefined, mayHaveActed: true, getRetried: false, postRetried: false }],
];

describe("the verdict on each kind of failure", () => {
  test.each(KINDS)("%s", (_what, kind, expected) => {
    const get = classifyFailure("GET", kind("GET"), DEFAULT_RETRY_POLICY);
    const post = classifyFailure("POST", kind("POST"), DEFAULT_RETRY_POLICY);
    expect({ counts: get.counts, pauseMs: get.pauseMs, mayHaveActed: get.mayHaveActed, getRetried: get.retry, postRetried: post.retry }).toEqual(expected);
  });

  test.each(KINDS)("a write is retried only when the server cannot have acted: %s", (_what, kind) => {
    const post = classifyFailure("POST", kind("POST"), DEFAULT_RETRY_POLICY);
    expect(post.retry && post.mayHaveActed).toBe(false);
  });

  test.each(KINDS)("the caller's error and the write guard say what the verdict says: %s", (_what, kind) => {
    const failure = kind("POST");
    const verdict = classifyFailure("POST", failure, DEFAULT_RETRY_POLICY);
    const error = publicError({ failure, verdict }, 1);
    if (error instanceof ConnectionError) expect(error.mayHaveReachedServer).toBe(verdict.mayHaveActed);
    expect(isAmbiguousWrite(error)).toBe(verdict.mayHaveActed);
  });

  test("a policy that counts a code as never sent changes the verdict and the caller's error with it", () => {
    const policy = resolveRetryPolicy({ neverSentCodes: ["ECONNRESET"] });
    const failure = failed.network("POST", "ECONNRESET");
    const verdict = classifyFailure("POST", failure, policy);
    expect(verdict).toMatchObject({ retry: true, mayHaveActed: false });
    expect((publicError({ failure, verdict }, 1) as ConnectionError).mayHaveReachedServer).toBe(false);
  });
});

describe("the retry loop and the pacer act on the verdict", () => {
  /** A loop on a fake clock over a pacer of its own; the attempt fails `failures` times with `judged`, then answers; `pauses` are the family pauses at each wait. */
  async function run(judged: AttemptFailed, failures: number, policy = resolveRetryPolicy({ maxAttempts: 2 })) {
    let clock = 0;
    const waits: number[] = [];
    const pauses: Array<Readonly<Record<string, number>>> = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
      pauses.push(pacer.state().pausedUntil);
      clock += ms;
    };
    const pacer: RequestPacer = new RequestPacer({ maxConcurrent: 1, now: () => clock, sleep });
    const o: RetryLoopOptions = { policy, pacer, sleep, now: () => clock, random: () => 0.5, logger: undefined, onRetry: undefined };
    const spec: RequestSpec<undefined> = { method: "GET", path: "/cloud/v1/projects", response: null };
    let sent = 0;
    const attempt = async (): Promise<ApiResponse<undefined>> => {
      sent++;
      if (sent <= failures) throw judged;
      return { method: "GET", path: spec.path, status: 200, data: undefined, header: () => undefined };
    };
    const outcome = await withRetries(o, spec, spec.path, attempt).then(
      (r) => r.status,
      (e: unknown) => e,
    );
    return { outcome, sent, waits, pauses };
  }

  test("a verdict that does not count lets more failures through than maxAttempts, and its pause holds the family", async () => {
    const failure = failed.status("GET", 503);
    // Not what the policy would say of a 503: the loop and the pacer must read this verdict, not the failure.
    const verdict: FailureVerdict = { retry: true, reason: "paced", counts: false, pauseMs: 3000, retryAfterMs: 3000, paced: true, mayHaveActed: false };
    const { outcome, sent, waits, pauses } = await run(new AttemptFailed(failure, verdict), 3);
    expect(outcome).toBe(200);
    expect(sent).toBe(4);
    expect(waits).toEqual([3000, 3000, 3000]);
    expect(pauses).toEqual([{ cloud: 3000 }, { cloud: 6000 }, { cloud: 9000 }]);
  });

  test("a verdict that counts stops at the limit, and the message says the same number", async () => {
    const failure = failed.status("GET", 503);
    const { outcome, sent } = await run(new AttemptFailed(failure, classifyFailure("GET", failure, DEFAULT_RETRY_POLICY)), 5);
    expect(sent).toBe(2);
    expect(outcome).toBeInstanceOf(ServerError);
    expect((outcome as ServerError).attempts).toBe(2);
    expect((outcome as ServerError).message).toMatch(/Gave up after 2 attempts\.$/);
  });
});
