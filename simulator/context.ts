/**
 * The pieces of the running simulator a route handler may use. Apart from the route table
 * (`router.ts`), so the modules of the pieces never import the router.
 */
import type { AnswerShapers } from "./answers";
import type { Clock } from "./clock";
import type { FaultConfig } from "./faults";
import type { MalformedRules } from "./malformed";
import type { ListShifts } from "./listShifts";
import type { InFlightRequest, RequestLogEntry } from "./requestLog";
import type { StateStore } from "./stateStore";
import type { TaskEngine } from "./tasks";
import type { UnservedEndpoints } from "./unserved";
import type { ResellerPathsServed } from "./resellerPaths";

/** The pieces of the running simulator a handler may use. */
export interface SimContext {
  store: StateStore;
  clock: Clock;
  tasks: TaskEngine;
  /** Rate limiter for delegation status: returns seconds to wait, or 0 when allowed. */
  delegationLimiter: { take(): number };
  /** The admin API's side of the request log and faults; the server's is `ServerContext`. */
  requestLog: { list(): RequestLogEntry[]; inFlight(): InFlightRequest[]; clear(): void };
  faults: { get(): FaultConfig; set(config: FaultConfig): void; clear(): void };
  /** Malformed-answer rules (admin API `/__admin/malformed`). */
  malformed: MalformedRules;
  /** Endpoints answered as not served (admin API `/__admin/unserved`). */
  unserved: UnservedEndpoints;
  /** Lists that gain and lose items between pages (admin API `/__admin/list-shifts`). */
  listShifts: ListShifts;
  /**
   * The answer shapers of the dialect in force (`dialect.ts`): replaced by `POST /__admin/dialect`,
   * back to the started dialect's on reset.
   */
  answers: AnswerShapers;
  /** Which WAAP reseller paths are served (option `resellerPaths`, CONTRACT.md "Reseller paths"). */
  readonly resellerPaths: ResellerPathsServed;
  /** Restores seed state and the started dialect, clears the log and faults (admin reset). */
  reset(): void;
}
