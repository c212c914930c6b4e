/**
 * The request checker itself, so the conformance test cannot pass vacuously: each kind of
 * non-conforming request (unknown path, wrong method, a path or query value outside its type,
 * enum or bounds, an undocumented or missing query parameter, a body missing, unexpected,
 * missing a required property, of the wrong type or with an unknown property) is reported,
 * naming the request, the operation and the place; conforming requests pass.
 */
import { loadFacts, type OpenApiFacts, type OperationFacts } from "../../conformance/facts";
import { checkRequests, formatViolations, requestChecker, unexercised, type LoggedRequest, type Violation } from "../../conformance/requestChecker";

const facts = loadFacts();
const check = requestChecker(facts);

function req(method: string, path: string, query: LoggedRequest["query"] = {}, body?: unknown): LoggedRequest {
  return { method, path, query, ...(body !== undefined ? { body } : {}) };
}

/** The violations of one request, as `rule: message`. */
function violations(r: LoggedRequest): string[] {
  return check(r).violations.map((v) => `${v.rule}: ${v.message}`);
}

const UPGRADE = "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade";
const EVENT = "/storage/notifications/v1/event";

describe("conforming requests", () => {
  test.each([
    req("GET", "/cloud/v1/tasks", { project_id: "1", state: ["FINISHED", "RUNNING"], order_by: "asc", limit: "1000", offset: "0" }),
    req("GET", "/cloud/v1/tasks/9349778d-a12e-4ad2-8fea-9a05951da65a"),
    req("GET", "/cloud/v1/instances/1/76", { status: "ACTIVE", name: "web", limit: "10" }),
    req("POST", UPGRADE, {}, { version: "v1.31.2" }),
    req("POST", EVENT, { client_id: "42" }, { name: "reaching_used_space", storage_name: "media", bytes: 500 }),
    req("GET", "/waap/v1/prebilling/total/requests", { client_ids: ["101", "102"], from: "2026-09-01", to: "2026-09-08", limit: "100" }),
    req("GET", "/waap/v1/prebilling/total/domains", { client_ids: "101", from: "2026-09-01", to: "2026-09-08" }),
    req("GET", "/dns/v2/analyze/example.com/delegation-status"),
    req("GET", "/streaming/ai/tasks", { task_id: "ff552cb0-9895-4581-abc1-eddd9806f69c", status: "SUCCESS" }),
  ])("$method $path $query conforms and is matched to its operation", (r) => {
    const verdict = check(r);
    expect(verdict.violations).toEqual([]);
    expect(verdict.operation?.method).toBe(r.method);
  });
});

describe("each kind of non-conforming request is reported", () => {
  test("an unknown path (the spec's reseller form), naming the path", () => {
    expect(violations(req("GET", "/waap/reseller/v1/prebilling/total/requests", { from: "2026-09-01", to: "2026-09-02" }))).toEqual([
      "unknown-path: no documented operation has a path matching /waap/reseller/v1/prebilling/total/requests",
    ]);
    expect(violations(req("GET", "/waap/reseller/ping"))[0]).toMatch(/^unknown-path: /);
  });

  test("a wrong method, naming the documented ones", () => {
    expect(violations(req("PATCH", EVENT, {}, { name: "reaching_used_space" }))).toEqual([
      `wrong-method: PATCH is not documented for ${EVENT} (documented: POST, PUT, DELETE)`,
    ]);
    expect(violations(req("GET", UPGRADE))).toEqual(["wrong-method: GET is not documented for /cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/upgrade (documented: POST)"]);
  });

  test("a query value outside its enum, listing the allowed values", () => {
    const [v, ...rest] = violations(req("GET", "/cloud/v1/instances/1/76", { status: "RESCUE" }));
    expect(rest).toEqual([]);
    expect(v).toMatch(/^query-value: query parameter status: "RESCUE" is not one of "ACTIVE", "BUILD", /);
    // The task types the parameter's description lists: the spec's name of the upgrade is not one.
    expect(violations(req("GET", "/cloud/v1/tasks", { task_type: "upgrade_k8s_cluster" }))[0]).toMatch(/^query-value: query parameter task_type: "upgrade_k8s_cluster" is not one of "activate_ddos_profile", /);
    expect(violations(req("GET", "/cloud/v1/tasks", { task_type: "upgrade_k8s_cluster_v2" }))).toEqual([]);
    expect(violations(req("GET", "/cloud/v1/tasks", { state: ["FINISHED", "DONE"] }))).toEqual([
      'query-value: query parameter state[1]: "DONE" is not one of "ERROR", "FINISHED", "NEW", "RUNNING"',
    ]);
  });

  test("a body missing a required property, and a required body missing", () => {
    expect(violations(req("POST", UPGRADE, {}, {}))).toEqual(["body: body: version: required, missing"]);
    expect(violations(req("POST", EVENT, {}, { storage_name: "media", bytes: 5 }))).toEqual(["body: body: name: required, missing"]);
    expect(violations(req("DELETE", EVENT))).toEqual(["body-missing: the operation requires a application/json body; none was sent"]);
  });

  test("a body property of the wrong type or out of its bounds, and a body where none is taken", () => {
    expect(violations(req("PUT", EVENT, {}, { name: "reaching_used_space", bytes: "500" }))).toEqual(['body: body: bytes: "500" is string, not integer']);
    expect(violations(req("PUT", EVENT, {}, { name: "reaching_used_space", bytes: -1 }))).toEqual(["body: body: bytes: -1 is not a valid uint64"]);
    const pool = { flavor_id: "g1", node_count: 201, min_node_count: null };
    expect(violations(req("POST", "/cloud/v2/k8s/clusters/1/76/pools/check_limits", {}, pool))).toEqual(["body: body: node_count: 201 is above the maximum 200"]);
    expect(violations(req("GET", "/iam/clients/me", {}, { x: 1 }))).toEqual(["body-unexpected: the operation takes no body; one was sent"]);
  });

  test("an undocumented query parameter, a missing required one, and values outside type and bounds", () => {
    expect(violations(req("GET", "/iam/clients/me", { verbose: "1" }))).toEqual(["query-unknown: query parameter verbose is not documented (documented: none)"]);
    expect(violations(req("GET", "/waap/v1/prebilling/total/requests", { from: "2026-09-01" }))).toEqual(["query-missing: required query parameter to is missing"]);
    expect(violations(req("GET", "/cloud/v1/tasks", { limit: "0" }))).toEqual(["query-value: query parameter limit: 0 is not above 0"]);
    expect(violations(req("GET", "/cloud/v1/projects", { include_deleted: "yes", limit: "1001" }))).toEqual([
      'query-value: query parameter include_deleted: "yes" is string, not boolean',
      "query-value: query parameter limit: 1001 is above the maximum 1000",
    ]);
    expect(violations(req("GET", "/waap/v1/prebilling/total/requests", { from: "2026-13-01", to: "2026-09-08", limit: "101" }))).toEqual([
      'query-value: query parameter from: "2026-13-01" is not a valid date',
      "query-value: query parameter limit: 101 is above the maximum 100",
    ]);
    expect(violations(req("GET", "/cloud/v1/instances/1/76", { name: ["a", "b"] }))).toEqual(['query-value: query parameter name: sent 2 times ("a", "b"), but it takes one value']);
  });

  test("a path parameter outside its type or enum", () => {
    expect(violations(req("GET", "/cloud/v1/instances/one/76"))).toEqual(['path-parameter: path parameter project_id: "one" is string, not integer']);
    expect(violations(req("GET", "/waap/v1/prebilling/total/bananas", { from: "2026-09-01", to: "2026-09-02" }))[0]).toMatch(
      /^path-parameter: path parameter metric: "bananas" is not one of "domains", "volume", "requests", "requests_clean"$/,
    );
  });
});

describe("rules the committed facts do not use today", () => {
  const op = (over: Partial<OperationFacts>): OperationFacts => ({ method: "POST", path: "/x/{id}", source: { file: "f.yaml", commit: "0".repeat(40) }, pathParameters: { id: { required: true, schema: { type: "string" } } }, queryParameters: {}, body: null, ...over });
  const synthetic: OpenApiFacts = {
    about: "test",
    repository: "test",
    operations: [
      op({ body: { required: true, contentType: "application/json", schema: { type: "object", required: ["a"], additionalProperties: false, properties: { a: { type: "string", nullable: true }, b: { anyOf: [{ type: "integer" }, { type: "string", enum: ["auto"] }] } } } } }),
      op({ method: "GET", path: "/x/literal", queryParameters: { ids: { required: false, explode: false, schema: { type: "array", items: { type: "integer" } } } } }),
    ],
  };
  const own = requestChecker(synthetic);

  test("an unknown property where additionalProperties is false; nullable and anyOf", () => {
    expect(own(req("POST", "/x/1", {}, { a: null, b: "auto" })).violations).toEqual([]);
    expect(own(req("POST", "/x/1", {}, { a: "s", b: 3, c: true })).violations.map((v) => v.message)).toEqual(["body: c: not a property of this body (allowed: a, b)"]);
    expect(own(req("POST", "/x/1", {}, { a: "s", b: "manual" })).violations.map((v) => v.message)).toEqual([
      'body: b: "manual" matches none of its 2 forms (b: "manual" is string, not integer; b: "manual" is not one of "auto")',
    ]);
  });

  test("a literal path wins over a template, and an unexploded array is split at commas", () => {
    expect(own(req("GET", "/x/literal", { ids: "1,2" })).violations).toEqual([]);
    expect(own(req("GET", "/x/literal", { ids: "1,x" })).violations.map((v) => v.message)).toEqual(['query parameter ids[1]: "x" is string, not integer']);
  });
});

describe("reports", () => {
  test("each violation prints as one line naming the rule, the request as sent, the operation and the problem", () => {
    const report = checkRequests(facts, [req("GET", "/cloud/v1/instances/1/76", { status: "RESCUE", limit: "5" }), req("GET", "/waap/reseller/ping")]);
    const lines = formatViolations(report.violations).split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[query-value\] GET \/cloud\/v1\/instances\/1\/76\?status=RESCUE&limit=5 -> GET \/cloud\/v1\/instances\/\{project_id\}\/\{region_id\}: query parameter status: "RESCUE" is not one of /);
    expect(lines[1]).toBe("[unknown-path] GET /waap/reseller/ping: no documented operation has a path matching /waap/reseller/ping");
  });

  test("only conforming requests count as exercising an operation; the others are listed as not exercised", () => {
    const report = checkRequests(facts, [req("GET", "/iam/clients/me"), req("GET", "/cloud/v1/instances/1/76", { status: "RESCUE" })]);
    expect([...report.exercised]).toEqual(["GET /iam/clients/me"]);
    const missing = unexercised(facts, report);
    expect(missing).toHaveLength(facts.operations.length - 1);
    expect(missing).toContain("GET /cloud/v1/instances/{project_id}/{region_id}");
    expect(report.violations.map((v: Violation) => v.operation)).toEqual(["GET /cloud/v1/instances/{project_id}/{region_id}"]);
  });
});
