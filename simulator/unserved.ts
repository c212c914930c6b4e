/**
 * Endpoints the simulator plays as not served (admin API `/__admin/unserved`, CONTRACT.md
 * "Unserved endpoints"): a platform deployment older than an endpoint answers 404 where it
 * should be, a gateway in front of it may answer 501. A client that treats an endpoint as
 * optional (the upgrade's quota check) is proved against both.
 *
 * Why not a fault: faults are drawn per request at a rate and answered before the handler; an
 * endpoint that does not exist is the same on every request, and is answered like an unknown
 * path, after authentication.
 */
import { matchesRequest, pathFilter, type RequestFilter } from "./adminBody";
import { simpleError } from "./errors";
import type { JsonObject } from "./state";

/** The statuses an unserved endpoint may answer: not found (not deployed) or not implemented. */
export const UNSERVED_STATUSES = [404, 501] as const;

/** One unserved endpoint: requests matching every field that is set. */
export interface UnservedRule extends RequestFilter {
  status: (typeof UNSERVED_STATUSES)[number];
}

/** Reads the body of `POST /__admin/unserved` (400 naming the first bad field). */
export function parseUnservedRule(body: JsonObject): UnservedRule {
  const rule: UnservedRule = { status: 404, ...pathFilter(body) };
  if (rule.path === undefined && rule.pathPrefix === undefined) throw simpleError(400, "path or pathPrefix is required");
  if (body.method !== undefined) {
    if (typeof body.method !== "string" || body.method === "") throw simpleError(400, "method must be a string such as POST");
    rule.method = body.method.toUpperCase();
  }
  if (body.status !== undefined) {
    if (!(UNSERVED_STATUSES as readonly unknown[]).includes(body.status)) throw simpleError(400, `status must be one of ${UNSERVED_STATUSES.join(", ")}`);
    rule.status = body.status as UnservedRule["status"];
  }
  return rule;
}

/** The unserved endpoints of a running simulator. */
export class UnservedEndpoints {
  private rules: UnservedRule[] = [];

  /** Adds a rule from an admin body; returns it. */
  add(body: JsonObject): UnservedRule {
    const rule = parseUnservedRule(body);
    this.rules.push(rule);
    return { ...rule };
  }

  list(): UnservedRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  clear(): void {
    this.rules = [];
  }

  /** The status to answer a request with, or undefined when the endpoint is served. */
  statusFor(method: string, path: string): UnservedRule["status"] | undefined {
    return this.rules.find((r) => matchesRequest(r, method, path))?.status;
  }
}
