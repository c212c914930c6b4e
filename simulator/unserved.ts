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

/** The statuses an unserved endpoint may answer: not found (not deployed) or not implemented. */
export const UNSERVED_STATUSES = [404, 501] as const;

/** One unserved endpoint: requests matching every field that is set. */
export interface UnservedRule {
  method?: string;
  /** Exactly this path. */
  path?: string;
  /** Paths starting with this. */
  pathPrefix?: string;
  status: (typeof UNSERVED_STATUSES)[number];
}

/** A rule the admin API refused, with the reason. */
export class UnservedRuleError extends Error {}

/** Checks an admin body and turns it into a rule. */
export function parseUnservedRule(body: Record<string, unknown>): UnservedRule {
  const rule: UnservedRule = { status: 404 };
  for (const key of ["path", "pathPrefix"] as const) {
    const v = body[key];
    if (v === undefined) continue;
    if (typeof v !== "string" || !v.startsWith("/")) throw new UnservedRuleError(`${key} must be a string starting with /`);
    rule[key] = v;
  }
  if (rule.path === undefined && rule.pathPrefix === undefined) throw new UnservedRuleError("path or pathPrefix is required");
  if (body.method !== undefined) {
    if (typeof body.method !== "string" || body.method === "") throw new UnservedRuleError("method must be a string such as POST");
    rule.method = body.method.toUpperCase();
  }
  if (body.status !== undefined) {
    if (!(UNSERVED_STATUSES as readonly unknown[]).includes(body.status)) throw new UnservedRuleError(`status must be one of ${UNSERVED_STATUSES.join(", ")}`);
    rule.status = body.status as UnservedRule["status"];
  }
  return rule;
}

/** The unserved endpoints of a running simulator. */
export class UnservedEndpoints {
  private rules: UnservedRule[] = [];

  add(rule: UnservedRule): void {
    this.rules.push(rule);
  }

  list(): UnservedRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  clear(): void {
    this.rules = [];
  }

  /** The status to answer a request with, or undefined when the endpoint is served. */
  statusFor(method: string, path: string): UnservedRule["status"] | undefined {
    const rule = this.rules.find(
      (r) => (r.method === undefined || r.method === method) && (r.path === undefined || r.path === path) && (r.pathPrefix === undefined || path.startsWith(r.pathPrefix)),
    );
    return rule?.status;
  }
}
