/**
 * Matches each request a client sent (the simulator's request log) to an operation of the
 * public OpenAPI facts and checks it: path template and method, path parameters, query
 * parameters (known, required, typed, in their enum and bounds), and the JSON body (present when
 * required, absent when the operation takes none, valid against its schema).
 *
 * Why: the simulator answers what our spec names; the real platform answers what its public
 * OpenAPI describes. A request that only the simulator accepts would fail in production.
 */
import { operationKey, type OpenApiFacts, type OperationFacts } from "./facts";
import { valueProblems, wireProblems } from "./schemaCheck";

/** A request as the simulator logs it (`sim.requests()`): path without query, query values as text. */
export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: unknown;
}

/** What a violation is about. */
export type ViolationRule = "unknown-path" | "wrong-method" | "path-parameter" | "query-unknown" | "query-missing" | "query-value" | "body-missing" | "body-unexpected" | "body";

/** One way a request breaks the facts. */
export interface Violation {
  /** `GET /cloud/v1/tasks?state=DONE`: the request as sent. */
  readonly request: string;
  readonly rule: ViolationRule;
  /** The operation it was matched to (`GET /cloud/v1/tasks/{task_id}`), when its path matched one. */
  readonly operation?: string;
  readonly message: string;
}

/** The verdict on one request. */
export interface RequestVerdict {
  readonly request: LoggedRequest;
  /** The operation matched, when the path and method matched one. */
  readonly operation?: OperationFacts;
  readonly violations: readonly Violation[];
}

/** The verdicts of many requests, and which operations conforming requests exercised. */
export interface ConformanceReport {
  readonly verdicts: readonly RequestVerdict[];
  readonly violations: readonly Violation[];
  /** Keys ({@link operationKey}) of the operations at least one conforming request exercised. */
  readonly exercised: ReadonlySet<string>;
}

interface Template {
  readonly path: string;
  readonly regex: RegExp;
  readonly names: readonly string[];
  /** Characters outside `{...}`: the more, the more specific (`/tasks/acknowledge_all` before `/tasks/{task_id}`). */
  readonly literal: number;
}

function templateOf(path: string): Template {
  const names: string[] = [];
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{([^}]+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(m[1] as string);
      return "([^/]+)";
    })
    .join("");
  return { path, regex: new RegExp(`^${source}$`), names, literal: path.replace(/\{[^}]+\}/g, "").length };
}

/** `GET /path?a=1&b=2&b=3`, as sent. */
export function describeRequest(r: LoggedRequest): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(r.query)) for (const one of typeof v === "string" ? [v] : v) q.append(k, one);
  const text = q.toString();
  return `${r.method} ${r.path}${text ? `?${text}` : ""}`;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The most specific template matching `path`, with its parameters' values (decoded). */
function matchPath(templates: readonly Template[], path: string): { template: Template; values: Record<string, string> } | undefined {
  let best: { template: Template; values: Record<string, string> } | undefined;
  for (const t of templates) {
    const m = t.regex.exec(path);
    if (!m || (best && best.template.literal >= t.literal)) continue;
    best = { template: t, values: Object.fromEntries(t.names.map((n, i) => [n, decoded(m[i + 1] as string)])) };
  }
  return best;
}

function parameterViolations(op: OperationFacts, r: LoggedRequest, pathValues: Record<string, string>): Omit<Violation, "request" | "operation">[] {
  const out: Omit<Violation, "request" | "operation">[] = [];
  for (const [name, value] of Object.entries(pathValues)) {
    const facts = op.pathParameters[name];
    if (!facts) out.push({ rule: "path-parameter", message: `path parameter ${name} is not documented` });
    else for (const p of wireProblems(facts.schema, value, `path parameter ${name}`)) out.push({ rule: "path-parameter", message: p });
  }
  for (const [name, value] of Object.entries(r.query)) {
    const facts = op.queryParameters[name];
    if (!facts) {
      const known = Object.keys(op.queryParameters);
      out.push({ rule: "query-unknown", message: `query parameter ${name} is not documented (documented: ${known.length ? known.join(", ") : "none"})` });
    } else for (const p of wireProblems(facts.schema, value, `query parameter ${name}`, facts.explode !== false)) out.push({ rule: "query-value", message: p });
  }
  for (const [name, facts] of Object.entries(op.queryParameters)) {
    if (facts.required && r.query[name] === undefined) out.push({ rule: "query-missing", message: `required query parameter ${name} is missing` });
  }
  return out;
}

function bodyViolations(op: OperationFacts, r: LoggedRequest): Omit<Violation, "request" | "operation">[] {
  if (r.body === undefined) return op.body?.required ? [{ rule: "body-missing", message: `the operation requires a ${op.body.contentType} body; none was sent` }] : [];
  if (!op.body) return [{ rule: "body-unexpected", message: "the operation takes no body; one was sent" }];
  return valueProblems(op.body.schema, r.body).map((p) => ({ rule: "body" as const, message: `body: ${p}` }));
}

/** A checker bound to `facts`: call it on each logged request. */
export function requestChecker(facts: OpenApiFacts): (r: LoggedRequest) => RequestVerdict {
  const templates = [...new Set(facts.operations.map((o) => o.path))].map(templateOf);
  return (r) => {
    const request = describeRequest(r);
    const matched = matchPath(templates, r.path);
    if (!matched) {
      return { request: r, violations: [{ request, rule: "unknown-path", message: `no documented operation has a path matching ${r.path}` }] };
    }
    const byPath = facts.operations.filter((o) => o.path === matched.template.path);
    const op = byPath.find((o) => o.method === r.method.toUpperCase());
    if (!op) {
      const allowed = byPath.map((o) => o.method).join(", ");
      return { request: r, violations: [{ request, rule: "wrong-method", operation: matched.template.path, message: `${r.method} is not documented for ${matched.template.path} (documented: ${allowed})` }] };
    }
    const operation = operationKey(op);
    const found = [...parameterViolations(op, r, matched.values), ...bodyViolations(op, r)];
    return { request: r, operation: op, violations: found.map((v) => ({ request, operation, ...v })) };
  };
}

/** Checks every request; an operation counts as exercised when a request matched to it conforms. */
export function checkRequests(facts: OpenApiFacts, requests: readonly LoggedRequest[]): ConformanceReport {
  const check = requestChecker(facts);
  const verdicts = requests.map(check);
  const exercised = new Set(verdicts.filter((v) => v.operation && v.violations.length === 0).map((v) => operationKey(v.operation as OperationFacts)));
  return { verdicts, violations: verdicts.flatMap((v) => v.violations), exercised };
}

/** The operations of `facts` no conforming request exercised (a lookup or a step dropped from the run). */
export function unexercised(facts: OpenApiFacts, report: ConformanceReport): string[] {
  return facts.operations.map(operationKey).filter((k) => !report.exercised.has(k));
}

/** One line per violation: `[rule] request -> operation: message`. */
export function formatViolations(violations: readonly Violation[]): string {
  return violations.map((v) => `[${v.rule}] ${v.request}${v.operation ? ` -> ${v.operation}` : ""}: ${v.message}`).join("\n");
}
