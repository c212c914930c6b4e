/**
 * Every API call the provider makes against every malformed answer (the table and the canned
 * API are in malformedAnswers.ts): each case either recovers (a one-off bad answer to a GET is
 * retried) or fails with an error naming the call and the field; none returns a value. Some
 * answers look broken but are legitimate for some calls (the tolerant reader): JSON labelled
 * `text/plain`, any JSON body to a call documented as a 204, and all-null values where every
 * field is open; those are read as the documented meaning, tested on their own below. A body
 * that stalls halfway waits out a client timeout, so those cases run concurrently in
 * malformedStall.test.ts.
 */
import { CloudPlatformError, ResponseFormatError, ResponseTooLargeError, ServerError } from "../../../provider/api";
import { expectNoSecret, newKey } from "./helpers";
import {
  CALLS,
  CAP,
  MALFORMED_CASES,
  MODES,
  NOT_MALFORMED,
  NULLS_ARE_AN_ANSWER,
  startCannedApi,
  type Call,
  type CannedApi,
  type Mode,
} from "./malformedAnswers";

describe("every API call against every malformed answer", () => {
  const key = newKey();
  let api: CannedApi;

  beforeAll(async () => {
    api = await startCannedApi(key);
  });
  afterAll(() => api.close());

  const outcome = (call: Call, mode: Mode | "good", times: number) => api.outcome(call, mode, times);

  /** The cases of this file: a stalling body waits out a timeout, so malformedStall.test.ts has those. */
  const CASES = MALFORMED_CASES.filter((c) => c.mode !== "slowBody");
  /** The same, for a one-off bad answer (a too-large body would come again, so it is not among them). */
  const ONE_OFF_CASES = CASES.filter((c) => c.mode !== "hugeBody");

  test.each(CALLS.map((call) => [call.name, call] as const))(
    "the documented answer of %s is accepted (so the cases below test the malformation, not the canned data)",
    async (_name, call) => {
      const r = await outcome(call, "good", 0);
      expect(r.error?.message).toBeUndefined();
    },
  );

  test("the malformed cases are every call in every mode but the 10 answers that are not malformed", () => {
    expect(NOT_MALFORMED).toBe(10);
    expect(MALFORMED_CASES).toHaveLength(CALLS.length * MODES.length - NOT_MALFORMED);
    expect(MALFORMED_CASES.filter((c) => c.mode === "slowBody")).toHaveLength(CALLS.length);
    // Every GET but those whose nulls are an answer, in every mode but hugeBody (and nulls for those two).
    expect(MALFORMED_CASES.filter((c) => c.mode !== "hugeBody" && c.call.method === "GET")).toHaveLength(
      CALLS.filter((c) => c.method === "GET").length * (MODES.length - 1) - NULLS_ARE_AN_ANSWER.size,
    );
  });

  test.each(CASES.map((c) => [c.label, c] as const))(
    "a malformed answer on every attempt: %s fails naming the call and the field; no value comes back",
    async (_label, { call, mode }) => {
      const r = await outcome(call, mode, Number.MAX_SAFE_INTEGER);
      expect(r.value).toBeUndefined();
      const err = r.error;
      expect(err).toBeInstanceOf(CloudPlatformError);
      if (!err) return;
      expect(err.message).toContain(`${call.method} ${call.path}`);
      expectNoSecret(err, key);
      if (mode === "html502") {
        expect(err).toBeInstanceOf(ServerError);
      } else {
        expect(err).toBeInstanceOf(ResponseFormatError);
        const format = err as ResponseFormatError;
        expect(format.field).not.toBe("");
        if (format.field !== "(body)") expect(err.message).toContain(`field ${format.field}`);
        expect(err instanceof ResponseTooLargeError).toBe(mode === "hugeBody");
      }
      // Reads are retried like a 5xx (a too-large answer is not: it would come again); writes never.
      const retried = call.method === "GET" && mode !== "hugeBody";
      expect(r.attempts).toBe(retried ? 3 : 1);
    },
  );

  test.each(ONE_OFF_CASES.map((c) => [c.label, c] as const))(
    "a one-off malformed answer, %s: a read is retried and the documented answer comes back; a write is not repeated",
    async (_label, { call, mode }) => {
      const clean = await outcome(call, "good", 0);
      const r = await outcome(call, mode, 1);
      if (call.method === "GET") {
        expect({ error: r.error?.message, value: r.value }).toEqual({ error: undefined, value: clean.value });
        expect(r.attempts).toBe(2);
      } else {
        expect({ failed: r.error instanceof CloudPlatformError, attempts: r.attempts }).toEqual({ failed: true, attempts: 1 });
      }
    },
  );

  const DOCUMENTED_BODIES = CALLS.filter((c) => c.good !== undefined);

  test("every call with a documented body is read as text/plain below: the GETs and the three writes that answer", () => {
    expect(DOCUMENTED_BODIES).toHaveLength(CALLS.filter((c) => c.method === "GET").length + 3);
  });

  test.each(DOCUMENTED_BODIES.map((call) => [call.name, call] as const))(
    "%s reads its documented JSON labelled text/plain as the documented value, at the first attempt",
    async (_name, call) => {
      const clean = await outcome(call, "good", 0);
      const r = await outcome(call, "jsonAsText", 1);
      expect({ error: r.error?.message, value: r.value, attempts: r.attempts }).toEqual({ error: undefined, value: clean.value, attempts: 1 });
      expect(r.value).toBeDefined();
    },
  );

  const WRITES_WITHOUT_BODY = CALLS.filter((c) => c.good === undefined);

  test("the calls documented as a 204 are the event update and delete", () => {
    expect(WRITES_WITHOUT_BODY.map((c) => c.name)).toEqual(["notifications.update", "notifications.delete"]);
  });

  test.each(
    WRITES_WITHOUT_BODY.flatMap((call) =>
      (["emptyObject", "jsonAsText", "nulls", "wrongShape", "emptyBody"] as const).map((mode) => [call.name, mode, call] as const),
    ),
  )("%s, documented as a 204, reads a JSON or empty body (%s) as success", async (_name, mode, call) => {
    const r = await outcome(call, mode, 1);
    expect({ error: r.error?.message, value: r.value, attempts: r.attempts }).toEqual({ error: undefined, value: undefined, attempts: 1 });
  });

  test.each(WRITES_WITHOUT_BODY.flatMap((call) => (["html200", "truncated"] as const).map((mode) => [call.name, mode, call] as const)))(
    "%s, documented as a 204, still refuses a body that is not JSON (%s)",
    async (_name, mode, call) => {
      const r = await outcome(call, mode, 1);
      expect(r.error).toBeInstanceOf(ResponseFormatError);
      expect(r.error?.message).toContain(
        `${call.method} ${call.path} returned 200 with an unexpected body: expected no body or JSON (the documented answer is a 204), got a body that is not JSON`,
      );
      expect(r.attempts).toBe(1);
    },
  );

  test("all-null values are the delegation status's 'nothing reported' (never false or 0)", async () => {
    const delegation = await outcome(CALLS.find((c) => c.name === "dns.delegationStatus") as Call, "nulls", 1);
    expect(delegation.error).toBeUndefined();
    expect(delegation.attempts).toBe(1);
    expect(delegation.value).toEqual({
      authoritativeNameServers: [],
      serviceAuthorizedCount: null,
      nonServiceAuthorizedCount: null,
      isWhitelabelDelegation: null,
      zoneExists: null,
    });
    for (const [field, v] of Object.entries(delegation.value as Record<string, unknown>)) {
      expect({ field, reads: v === false || v === 0 }).toEqual({ field, reads: false });
    }
  });

  test("all-null values are the event list's 'no events'", async () => {
    const events = await outcome(CALLS.find((c) => c.name === "notifications.list") as Call, "nulls", 1);
    expect(events).toEqual({ value: [], attempts: 1 });
  });

  test("the pool quota check reads its quotas", async () => {
    const call = CALLS.find((c) => c.name === "k8s.checkPoolQuota") as Call;
    expect((await outcome(call, "good", 0)).value).toEqual({ exceeded: [{ quota: "vm_count", limit: 4, usage: 3, requested: 3 }] });
  });

  test.each(["nulls", "wrongShape", "emptyObject"] as const)("the pool quota check reads %s as nothing exceeded", async (mode) => {
    const call = CALLS.find((c) => c.name === "k8s.checkPoolQuota") as Call;
    expect(await outcome(call, mode, 1)).toEqual({ value: { exceeded: [] }, attempts: 1 });
  });

  test("a format error says what came, cut short and without the key", async () => {
    const call = CALLS.find((c) => c.name === "k8s.getCluster") as Call;
    const html = (await outcome(call, "html200", Number.MAX_SAFE_INTEGER)).error as ResponseFormatError;
    expect(html.message).toMatch(
      /^GET \/cloud\/v2\/k8s\/clusters\/1\/76\/prod returned 200 with an unexpected body: expected JSON, got a body that is not JSON \(content type "text\/html; charset=utf-8"\); received text "<!doctype html>/,
    );
    expect(html.message).toContain("[REDACTED]");
    expect(html.message).toContain("Gave up after 3 attempts.");
    const nulls = (await outcome(call, "nulls", Number.MAX_SAFE_INTEGER)).error as ResponseFormatError;
    // The id is open now; the name (the cluster's identifier) is the first required field.
    expect(nulls.field).toBe("name");
    expect(nulls.message).toContain("field name: expected string, got null; received null.");
    const huge = (await outcome(call, "hugeBody", 1)).error as ResponseFormatError;
    expect(huge.message).toContain(`exceeds the client's maxResponseBytes of ${CAP} bytes`);
    expect(huge.received.length).toBeLessThan(200);
  });
});
