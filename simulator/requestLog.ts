/**
 * The request log behind `GET /__admin/requests` and `sim.requests()`, plus the requests still
 * in flight (held by injected latency or being handled).
 *
 * Why the in-flight list: a test that must act while a request is held (kill a run mid-write)
 * waits for the simulator to report the request as held, instead of sleeping and hoping.
 */
/** One entry of the request log (CONTRACT.md "Admin API"). */
export interface RequestLogEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  requestId: string;
  /** Bytes of the response body sent (0 for none, a reset connection or a malformed answer); for "bytes received" figures. */
  responseBytes: number;
  /**
   * Set when an injected fault shaped the response: "latency", "429", "503", "reset", or the
   * malformed-answer mode (`html200`, `truncated`, ...; the handler ran and `status` is its own).
   */
  fault?: string;
  /** The status actually sent, when a malformed answer sent another than the handler's (`html200`, `html502`, a 204 spoilt). */
  sentStatus?: number;
  /**
   * The request's body: the parsed value when it is JSON, its text otherwise; absent when empty
   * or over {@link MAX_LOGGED_BODY} characters. Why: a test checks what a client sent, not only where.
   */
  body?: unknown;
}

/** Largest request body the log keeps (characters); a larger one is left out, so the bounded log stays small. */
export const MAX_LOGGED_BODY = 16 * 1024;

/** The `body` field of a log entry for a request body's text: nothing when empty or too large. */
export function loggedBody(raw: string): { body?: unknown } {
  if (raw === "" || raw.length > MAX_LOGGED_BODY) return {};
  try {
    return { body: JSON.parse(raw) as unknown };
  } catch {
    return { body: raw };
  }
}

/** A request the simulator has received and not yet answered. */
export interface InFlightRequest {
  method: string;
  path: string;
  requestId: string;
  /** Set while an injected latency holds the request. */
  held: boolean;
}

/**
 * Bounded log of answered requests and the set of unanswered ones.
 *
 * Why bounded: a long-running CLI simulator must not grow without limit; the newest 10,000
 * entries are kept. The oldest are dropped in batches (a quarter of the bound at a time), so a
 * full log costs no array shift per request.
 */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private readonly open = new Map<string, InFlightRequest>();
  private seq = 0;
  private readonly max: number;

  constructor(max = 10000) {
    this.max = max;
  }

  /** Records a request as received and not yet answered. */
  begin(request: Omit<InFlightRequest, "held">): void {
    this.open.set(request.requestId, { ...request, held: false });
  }

  /** Marks a received request as held by injected latency (or no longer held). */
  hold(requestId: string, held: boolean): void {
    const r = this.open.get(requestId);
    if (r) r.held = held;
  }

  /** Appends an answered request, assigning its sequence number. */
  add(entry: Omit<RequestLogEntry, "seq">): RequestLogEntry {
    this.open.delete(entry.requestId);
    const full: RequestLogEntry = { seq: ++this.seq, ...entry };
    this.entries.push(full);
    if (this.entries.length > this.max + Math.ceil(this.max / 4)) this.entries.splice(0, this.entries.length - this.max);
    return full;
  }

  /** A copy of the log, oldest first. */
  list(): RequestLogEntry[] {
    const newest = this.entries.length > this.max ? this.entries.slice(-this.max) : this.entries;
    return newest.map((e) => ({ ...e, query: { ...e.query }, ...(e.body !== undefined ? { body: structuredClone(e.body) } : {}) }));
  }

  /** The requests received and not yet answered, oldest first. */
  inFlight(): InFlightRequest[] {
    return [...this.open.values()].map((r) => ({ ...r }));
  }

  /** Empties the log (sequence numbers keep counting; in-flight requests stay). */
  clear(): void {
    this.entries = [];
  }
}
