/**
 * The steps of the simulator's request pipeline, each on its own without a socket: the fault
 * verdict before the handler, auth, unserved endpoints and what the request log records of a
 * delivered answer. The whole pipeline is proved over HTTP by the other simulator suites.
 */
import type * as http from "http";
import { FaultController, type FaultConfig } from "../../../simulator/faults";
import { RequestLog } from "../../../simulator/requestLog";
import {
  checkAuth,
  type Delivered,
  type Exchange,
  injectFaults,
  recordRequest,
  type ServerContext,
  unservedError,
} from "../../../simulator/requestSteps";
import { productOf } from "../../../simulator/errors";
import { UnservedEndpoints } from "../../../simulator/unserved";

const SETTINGS = { apiKey: "full", readOnlyApiKey: "read" };

function exchange(method: string, path: string): Exchange {
  return {
    req: {} as http.IncomingMessage,
    res: {} as http.ServerResponse,
    requestId: "req-1",
    started: Date.parse("2026-03-01T00:00:00Z"),
    method,
    path,
    query: new URLSearchParams("a=1&b=2&b=3"),
    search: "?a=1&b=2&b=3",
    product: productOf(path),
    rawBody: "",
  };
}

/** A simulator with only the pieces a step reads. */
function sim(faults: FaultConfig = {}): ServerContext {
  const controller = new FaultController(1);
  controller.set(faults);
  return { faults: controller, requestLog: new RequestLog(), unserved: new UnservedEndpoints() } as unknown as ServerContext;
}

describe("injectFaults", () => {
  test.each([
    { name: "no fault set", config: {}, method: "GET", want: { held: false, resetAfterHandling: false } },
    { name: "another path", config: { errorRate: 1, path: "/iam/clients/me" }, method: "GET", want: { held: false, resetAfterHandling: false } },
    { name: "a 429 of the burst", config: { burst429: { count: 1, retryAfterSeconds: 2 } }, method: "GET", want: { held: false, resetAfterHandling: false, kind: "answer", fault: "429", status: 429 } },
    { name: "a 503", config: { errorRate: 1 }, method: "GET", want: { held: false, resetAfterHandling: false, kind: "answer", fault: "503", status: 503 } },
    { name: "a reset before the handler", config: { resetRate: 1 }, method: "POST", want: { held: false, resetAfterHandling: false, kind: "reset", status: 0 } },
    { name: "a write reset after it was handled", config: { resetRate: 1, afterHandling: true }, method: "POST", want: { held: false, resetAfterHandling: true } },
    { name: "a read reset before the handler even with afterHandling", config: { resetRate: 1, afterHandling: true }, method: "GET", want: { held: false, resetAfterHandling: false, kind: "reset", status: 0 } },
    { name: "latency alone", config: { latencyMs: 1 }, method: "GET", want: { held: true, resetAfterHandling: false } },
  ])("$name", async ({ config, method, want }) => {
    const verdict = await injectFaults(sim(config), exchange(method, "/cloud/v1/projects"));
    const outcome = verdict.outcome;
    expect({
      held: verdict.held,
      resetAfterHandling: verdict.resetAfterHandling,
      ...(outcome ? { kind: outcome.kind, status: outcome.kind === "reset" ? outcome.status : outcome.result.status } : {}),
      ...(outcome?.kind === "answer" && outcome.fault ? { fault: outcome.fault } : {}),
    }).toEqual(want);
  });

  test("the 429 carries Retry-After in the product's shape", async () => {
    const verdict = await injectFaults(sim({ burst429: { count: 1, retryAfterSeconds: 2 } }), exchange("GET", "/cloud/v1/projects"));
    expect(verdict.outcome).toMatchObject({ result: { headers: { "Retry-After": "2" }, body: { exception_class: "TooManyRequests" } } });
  });
});

describe("checkAuth", () => {
  test.each([
    { header: "apikey full", method: "DELETE", status: undefined },
    { header: "APIKEY full", method: "GET", status: undefined },
    { header: "apikey read", method: "GET", status: undefined },
    { header: "apikey read", method: "POST", status: 403 },
    { header: undefined, method: "GET", status: 401 },
    { header: "  ", method: "GET", status: 401 },
    { header: "Bearer full", method: "GET", status: 401 },
    { header: "apikey  full", method: "GET", status: 401 },
  ])("$header on $method: $status", ({ header, method, status }) => {
    expect(checkAuth(header, method, "cloud", "req-1", SETTINGS)?.status).toBe(status);
  });
});

describe("unservedError", () => {
  test.each([
    { rule: { path: "/waap/reseller/ping", status: 501 }, path: "/waap/reseller/ping", want: { status: 501, body: { type: "not-implemented" } } },
    { rule: { pathPrefix: "/cloud/", status: 404 }, path: "/cloud/v1/projects", want: { status: 404, body: { message: "Path /cloud/v1/projects could not be found" } } },
    { rule: { pathPrefix: "/dns/" }, path: "/cloud/v1/projects", want: undefined },
  ])("$rule on $path", ({ rule, path, want }) => {
    const s = sim();
    s.unserved.add(rule);
    const err = unservedError(s, exchange("GET", path));
    if (want === undefined) expect(err).toBeUndefined();
    else expect(err).toMatchObject(want);
  });
});

describe("recordRequest", () => {
  test.each<{ name: string; delivered: Delivered; held: boolean; fault?: string; sentStatus?: number; line: RegExp }>([
    { name: "a plain answer", delivered: { status: 200, responseBytes: 12 }, held: false, line: /GET \/cloud\/v1\/projects\?a=1&b=2&b=3 -> 200 \d+ms req=req-1$/ },
    { name: "latency alone", delivered: { status: 200, responseBytes: 12 }, held: true, fault: "latency", line: / -> 200 \[fault latency\] / },
    { name: "a fault after latency wins", delivered: { status: 503, responseBytes: 40, fault: "503" }, held: true, fault: "503", line: / -> 503 \[fault 503\] / },
    { name: "a spoilt answer with another status", delivered: { status: 200, responseBytes: 0, fault: "html502", sentStatus: 502 }, held: false, fault: "html502", sentStatus: 502, line: / -> 200 \(sent 502\) \[fault html502\] / },
  ])("$name", ({ delivered, held, fault, sentStatus, line }) => {
    const s = sim();
    const lines: string[] = [];
    recordRequest(s, { ...SETTINGS, log: (l) => lines.push(l) }, exchange("GET", "/cloud/v1/projects"), delivered, held);
    const [entry] = s.requestLog.list();
    expect(entry).toEqual({
      seq: 1,
      time: "2026-03-01T00:00:00.000Z",
      method: "GET",
      path: "/cloud/v1/projects",
      query: { a: "1", b: ["2", "3"] },
      status: delivered.status,
      requestId: "req-1",
      responseBytes: delivered.responseBytes,
      ...(fault ? { fault } : {}),
      ...(sentStatus !== undefined ? { sentStatus } : {}),
    });
    expect(lines).toEqual([expect.stringMatching(line)]);
  });
});
