/**
 * The write-reconcile rule (provider/resources/writeAttempts.ts): a write is sent again only
 * when reading back, after the settle delay, proves the first took no effect.
 */
import { ConflictError, ConnectionError, RequestAbortedError, ResponseFormatError, ServerError, ValidationError, type RequestOptions } from "../../../provider/api";
import {
  DEFAULT_WRITE_TIMING,
  reconcileWrite,
  settleDelayMs,
  WriteOutcomeUnknownError,
  type ProbeResult,
  type WriteTiming,
} from "../../../provider/resources/writeAttempts";
import { rejectionOf } from "../api/helpers";

const reset = (): ConnectionError =>
  new ConnectionError({ method: "POST", path: "/x", target: "127.0.0.1:1", code: "ECONNRESET", detail: "socket hang up", mayHaveReachedServer: true, timedOut: false });
const refused = (): ConnectionError =>
  new ConnectionError({ method: "POST", path: "/x", target: "127.0.0.1:1", code: "ECONNREFUSED", detail: "refused", mayHaveReachedServer: false, timedOut: false });
const apiError = <T>(cls: new (init: ConstructorParameters<typeof ServerError>[0]) => T, status: number): T =>
  new cls({ method: "POST", path: "/x", status, serverMessage: `server says ${status}`, mayHaveActed: status >= 500 });

/** A scripted write: each send takes the next outcome; each probe the next probe result. */
function scripted(sends: Array<Error | string>, probes: Array<ProbeResult<string> | Error>) {
  const events: string[] = [];
  const timing: WriteTiming = {
    settleMs: 250,
    requestTimeoutMs: 4_000,
    inFlightMarginMs: 1_000,
    maxAttempts: 3,
    sleep: async (ms) => {
      events.push(`sleep ${ms}`);
    },
  };
  const write = {
    what: "the create of thing",
    send: async (attempt: number, options: RequestOptions) => {
      events.push(`send ${attempt}`);
      if (options.timeoutMs !== 4_000) throw new Error(`send got timeout ${String(options.timeoutMs)}, not the timing's`);
      const next = sends.shift();
      if (next === undefined) throw new Error("no more sends scripted");
      if (next instanceof Error) throw next;
      return next;
    },
    probe: async () => {
      events.push("probe");
      const next = probes.shift();
      if (next === undefined) throw new Error("no more probes scripted");
      if (next instanceof Error) throw next;
      return next;
    },
    log: (line: string) => events.push(`log ${line}`),
  };
  return { write, timing, events, sends: () => events.filter((e) => e.startsWith("send")) };
}

describe("reconcileWrite", () => {
  test("a write that succeeds is sent once and never probed", async () => {
    const s = scripted(["ok"], []);
    await expect(reconcileWrite(s.write, s.timing)).resolves.toBe("ok");
    expect(s.events).toEqual(["send 1"]);
  });

  test("applied: the probe, after the in-flight wait, shows the write took effect; its value is returned, nothing resent", async () => {
    const s = scripted([reset()], [{ outcome: "applied", value: "found" }]);
    await expect(reconcileWrite(s.write, s.timing)).resolves.toBe("found");
    expect(s.events.filter((e) => !e.startsWith("log"))).toEqual(["send 1", "sleep 5000", "probe"]);
    expect(s.events.join("\n")).toMatch(/took effect after all/);
  });

  test("absent: the probe proves no effect, so the write is sent again after the settle delay and a backoff", async () => {
    const s = scripted([apiError(ServerError, 503), "second"], [{ outcome: "absent" }]);
    await expect(reconcileWrite(s.write, s.timing)).resolves.toBe("second");
    expect(s.events.filter((e) => !e.startsWith("log"))).toEqual(["send 1", "sleep 250", "probe", "sleep 500", "send 2"]);
    expect(s.events.join("\n")).toMatch(/sending it again \(attempt 2 of 3\)/);
  });

  test("absent every time: at most maxAttempts sends, then the original error saying it is safe to run again", async () => {
    const s = scripted([reset(), reset(), reset()], [{ outcome: "absent" }, { outcome: "absent" }, { outcome: "absent" }]);
    const err = await rejectionOf(reconcileWrite(s.write, s.timing));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.message).toMatch(/sent 3 times and reading back proved each time that it took no effect/);
    expect(s.sends()).toEqual(["send 1", "send 2", "send 3"]);
  });

  test("conflict: the probe's error is thrown, nothing resent", async () => {
    const conflict = new Error("someone else's event is there");
    const s = scripted([reset()], [{ outcome: "conflict", error: conflict }]);
    await expect(reconcileWrite(s.write, s.timing)).rejects.toBe(conflict);
    expect(s.sends()).toEqual(["send 1"]);
  });

  test("probe failing: 'may have taken effect', with both errors, and no second send", async () => {
    const s = scripted([reset()], [new Error("list failed: 502")]);
    const err = await rejectionOf(reconcileWrite(s.write, s.timing));
    expect(err).toBeInstanceOf(WriteOutcomeUnknownError);
    expect(err.message).toContain("socket hang up");
    expect(err.message).toContain("list failed: 502");
    expect(err.message).toMatch(/The create of thing may have taken effect .* so it was not sent again; run `pulumi up` again/);
    expect(s.sends()).toEqual(["send 1"]);
  });

  test("probe still unclear after the settle delay: 'may have taken effect' with what it saw, no second send", async () => {
    const s = scripted([reset()], [{ outcome: "unclear", reason: "the status changed but no task shows" }]);
    const err = await rejectionOf(reconcileWrite(s.write, s.timing));
    expect(err).toBeInstanceOf(WriteOutcomeUnknownError);
    expect(err.message).toContain("the status changed but no task shows");
    expect(s.events.filter((e) => !e.startsWith("log"))).toEqual(["send 1", "sleep 5000", "probe"]);
  });

  const timedOut = (): ConnectionError =>
    new ConnectionError({ method: "POST", path: "/x", target: "127.0.0.1:1", code: "ECONNABORTED", detail: "timeout of 4000ms exceeded", mayHaveReachedServer: true, timedOut: true });
  const formatError = (): ResponseFormatError => new ResponseFormatError({ method: "POST", path: "/x", status: 200, field: "(body)", problem: "expected a JSON object, got text/html", received: "<html>", mayHaveActed: true });

  test.each([
    ["a timeout (the request may still be on its way)", timedOut, 5_000, "5s"],
    ["a reset after sending", reset, 5_000, "5s"],
    ["a gateway's 504 (its backend may still be working)", () => apiError(ServerError, 504), 5_000, "5s"],
    ["a 502 (answered: the request is over)", () => apiError(ServerError, 502), 250, "250ms"],
    ["a 503", () => apiError(ServerError, 503), 250, "250ms"],
    ["a malformed 2xx (answered)", formatError, 250, "250ms"],
  ])("after %s the read-back waits %i ms: the request's own timeout plus the margin when it may still be in flight", async (_label, make, wait, written) => {
    const s = scripted([make(), "second"], [{ outcome: "absent" }]);
    await expect(reconcileWrite(s.write, s.timing)).resolves.toBe("second");
    expect(s.events.filter((e) => !e.startsWith("log"))).toEqual(["send 1", `sleep ${wait}`, "probe", "sleep 500", "send 2"]);
    expect(s.events.join("\n")).toContain(`reading back in ${written} to see`);
  });

  test("the production timing waits out a whole write timeout plus a margin before reading back after a timeout", () => {
    expect(DEFAULT_WRITE_TIMING.requestTimeoutMs).toBeGreaterThanOrEqual(30_000);
    expect(settleDelayMs(timedOut(), DEFAULT_WRITE_TIMING)).toBeGreaterThan(DEFAULT_WRITE_TIMING.requestTimeoutMs);
    expect(settleDelayMs(formatError(), DEFAULT_WRITE_TIMING)).toBe(DEFAULT_WRITE_TIMING.settleMs);
  });

  test.each([
    ["a 409", () => apiError(ConflictError, 409)],
    ["a 400", () => apiError(ValidationError, 400)],
    ["a refused connection (never reached the server)", refused],
  ])("%s is not ambiguous: thrown as is, never probed", async (_label, make) => {
    const failure = make();
    const s = scripted([failure], []);
    await expect(reconcileWrite(s.write, s.timing)).rejects.toBe(failure);
    expect(s.events).toEqual(["send 1"]);
  });
});

describe("reconcileWrite stopped by the operation's signal (Ctrl-C, customTimeouts)", () => {
  test("aborted during the settle delay: no probe and no second send; the outcome stays unknown", async () => {
    const s = scripted([reset()], [{ outcome: "absent" }]);
    const stop = new AbortController();
    const timing: WriteTiming = { ...s.timing, sleep: async (ms, signal) => (s.events.push(`sleep ${ms} ${signal === stop.signal}`), stop.abort()) };
    const err = await rejectionOf(reconcileWrite({ ...s.write, signal: stop.signal }, timing));
    expect(err).toBeInstanceOf(WriteOutcomeUnknownError);
    expect(err.message).toContain("the operation was stopped before reading back");
    expect(s.events.filter((e) => !e.startsWith("log"))).toEqual(["send 1", `sleep ${settleDelayMs(reset(), s.timing)} true`]);
  });

  test("aborted while the send was in flight: no probe, no second send; the outcome is unknown, never a plain failure", async () => {
    const s = scripted([new RequestAbortedError("POST", "/x")], [{ outcome: "absent" }]);
    const err = await rejectionOf(reconcileWrite(s.write, s.timing));
    expect(err).toBeInstanceOf(WriteOutcomeUnknownError);
    expect(err.message).toContain("the operation was stopped while the request was in flight");
    expect(s.events.filter((e) => !e.startsWith("log"))).toEqual(["send 1"]);
  });

  test("aborted before a resend that reading back allowed: the write is not sent again", async () => {
    const s = scripted([reset()], [{ outcome: "absent" }]);
    const stop = new AbortController();
    const timing: WriteTiming = { ...s.timing, sleep: async (ms) => void (s.events.push(`sleep ${ms}`), ms !== settleDelayMs(reset(), s.timing) && stop.abort()) };
    const err = await rejectionOf(reconcileWrite({ ...s.write, signal: stop.signal }, timing));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.message).toContain("the operation was stopped before sending it again");
    expect(s.sends()).toEqual(["send 1"]);
  });
});
