/**
 * Conformance of our own requests: a full run of the provider's code (fullRun.ts) against the
 * simulator, every logged request (method, path, query, body) checked against the public
 * OpenAPI's facts for the operations we call (tests/conformance/openapi-operations.json), and every
 * one of those operations exercised by a conforming request, every lookup called with each of
 * its arguments. The simulator accepts what our spec names; this test holds us to what the real
 * platform documents.
 */
import * as lookups from "../../../provider/lookups";
import { LookupArgumentError } from "../../../provider/lookups/errors";
import type { LookupDefinition } from "../../../provider/lookups/runtime";
import { startSimulator, type RequestLogEntry, type RunningSimulator } from "../../../simulator";
import { loadFacts, operationKey } from "../../conformance/facts";
import { checkRequests, formatViolations, unexercised, type ConformanceReport } from "../../conformance/requestChecker";
import { newKey } from "../api/helpers";
import { fullRun, lookupCalls } from "./fullRun";

const { OPERATIONS } = require("../../../tools/openapi-operations/extract.js") as { OPERATIONS: [string, string, string][] };

const facts = loadFacts();
let sim: RunningSimulator;
let requests: RequestLogEntry[];
let report: ConformanceReport;

// 40 simulated seconds per real second: each upgrade task (30 s simulated) ends within a second.
beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 40 });
  await fullRun(sim);
  requests = sim.requests();
  report = checkRequests(facts, requests);
});
afterAll(() => sim.close());

/** The lookup definitions the package exports (the internal building blocks left out). */
function exportedLookups(): LookupDefinition<unknown, unknown, unknown>[] {
  const isLookup = (v: unknown): v is LookupDefinition<unknown, unknown, unknown> =>
    typeof v === "object" && v !== null && "execute" in v && "normalize" in v && !(v as { internal?: boolean }).internal;
  return Object.values(lookups as Record<string, unknown>).filter(isLookup);
}

/** A lookup's arguments, as its refusal of an unknown one lists them. */
function argumentsOf(def: LookupDefinition<unknown, unknown, unknown>): string[] {
  try {
    def.normalize({ conformanceProbe: 1 });
  } catch (err) {
    if (!(err instanceof LookupArgumentError)) throw err;
    const listed = /allowed arguments: (.*)$/.exec(err.message);
    return listed ? (listed[1] as string).split(", ") : [];
  }
  throw new Error(`${def.name} accepted an unknown argument`);
}

describe("our own requests against the public OpenAPI", () => {
  test("every request of a full run conforms to the facts of its operation", () => {
    expect(requests.length).toBeGreaterThan(50);
    // One line per violation: `[rule] METHOD /path?query -> operation: what is wrong`.
    expect(formatViolations(report.violations).split("\n").filter(Boolean)).toEqual([]);
  });

  test("the run exercised every operation in the facts with a conforming request", () => {
    expect(unexercised(facts, report)).toEqual([]);
  });

  test("the run went through both resources' lifecycles, every request answered 2xx", () => {
    const count = (key: string, pred: (r: RequestLogEntry) => boolean = () => true) =>
      report.verdicts.filter((v) => v.operation && operationKey(v.operation) === key && pred(v.request as RequestLogEntry)).length;
    const upgrade = "POST /cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/upgrade";
    // Two steps at create, one at update.
    expect(count(upgrade)).toBe(3);
    // Four kinds and the event the adoption takes over; each kind's limit updated, the adopted event's too.
    for (const method of ["POST", "PUT", "DELETE"]) {
      expect({ method, sent: count(`${method} /storage/notifications/v1/event`) }).toEqual({ method, sent: 5 });
      expect({ method, withClientId: count(`${method} /storage/notifications/v1/event`, (r) => r.query["client_id"] === "42") }).toEqual({ method, withClientId: 1 });
    }
    expect(requests.filter((r) => r.status >= 300).map((r) => `${r.method} ${r.path} -> ${r.status}`)).toEqual([]);
  });

  test("the run calls every lookup the package exports, with each of its arguments", () => {
    const calls = lookupCalls("task-id");
    const notCalled = exportedLookups().filter((def) => !calls.some((c) => c.def === (def as unknown))).map((d) => d.name);
    expect(notCalled).toEqual([]);
    const unused = exportedLookups().flatMap((def) =>
      argumentsOf(def)
        .filter((arg) => !calls.some((c) => c.def === (def as unknown) && c.args[arg] !== undefined))
        .map((arg) => `${def.name}.${arg}`),
    );
    expect(unused).toEqual([]);
  });
});

describe("the committed facts", () => {
  test("hold the operations the extraction script lists, each naming its OpenAPI file and commit", () => {
    expect(facts.operations.map(operationKey).sort()).toEqual(OPERATIONS.map(([, method, path]) => `${method} ${path}`).sort());
    for (const op of facts.operations) {
      expect({ op: operationKey(op), file: op.source.file }).toEqual({ op: operationKey(op), file: expect.stringMatching(/^api-reference\/services_docs_mintlify_enriched\/\w+_api\.yaml$/) });
      expect(op.source.commit).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(facts.repository).toBe("G-Core/product-documentation");
  });

  test("are facts, not the files' text: no descriptions, titles or examples", () => {
    const keys = new Set<string>();
    JSON.stringify(facts.operations, (k, v: unknown) => {
      keys.add(k);
      return v;
    });
    for (const k of ["description", "title", "example", "examples", "summary", "x-mint", "default"]) expect({ key: k, present: keys.has(k) }).toEqual({ key: k, present: false });
  });
});
