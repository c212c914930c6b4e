/**
 * IAM: `GET /iam/clients/me`, the calling client.
 *
 * Why: `getCurrentClient`, and the cheapest way to check that a key works.
 */
import type { RequestOptions, Transport } from "../transport";
import { bodyObject, bool, isObject, numOr, numOrNull, str, strArray, strOrNull } from "../wire";

/** Status of one service for the account. */
export interface ServiceStatus {
  /** Service status, as sent. */
  readonly status: string;
  /** Whether the service is enabled for the client. */
  readonly enabled: boolean;
}

/** The calling account. */
export interface CurrentClient {
  /** Client (account) id. */
  readonly id: number;
  /** The account's email address. */
  readonly email: string;
  /** Account holder's name, when set. */
  readonly name: string | null;
  /** new, trial, active, paused, ... as sent. */
  readonly status: string;
  /** Company name, when set. */
  readonly companyName: string | null;
  /** Id of the user the key belongs to. */
  readonly currentUser: number | null;
  /** Capabilities of the account, as sent. */
  readonly capabilities: readonly string[];
  /** Keyed by service (CDN, CLOUD, DNS, ...), names kept as sent. */
  readonly serviceStatuses: Readonly<Record<string, ServiceStatus>>;
  /** Whether the account is deleted. */
  readonly deleted: boolean;
  /** Whether this is a test account. */
  readonly isTest: boolean;
}

/** The IAM client functions. */
export interface ClientsApi {
  /** The account of the API key in use. */
  me(options?: RequestOptions): Promise<CurrentClient>;
}

/** Bind the IAM client functions to a transport. */
export function clientsApi(t: Transport): ClientsApi {
  return {
    async me(options) {
      const w = bodyObject(await t.request({ method: "GET", path: "/iam/clients/me", options }));
      const statuses: Record<string, ServiceStatus> = {};
      if (isObject(w["serviceStatuses"])) {
        for (const [svc, s] of Object.entries(w["serviceStatuses"])) {
          if (isObject(s)) statuses[svc] = { status: str(s["status"]), enabled: bool(s["enabled"]) };
        }
      }
      // The wire mixes camelCase (companyName) and snake_case (is_test).
      return {
        id: numOr(w["id"], 0),
        email: str(w["email"]),
        name: strOrNull(w["name"]),
        status: str(w["status"]),
        companyName: strOrNull(w["companyName"] ?? w["company_name"]),
        currentUser: numOrNull(w["currentUser"] ?? w["current_user"]),
        capabilities: strArray(w["capabilities"]),
        serviceStatuses: statuses,
        deleted: bool(w["deleted"]),
        isTest: bool(w["is_test"]),
      };
    },
  };
}

/** `client.iam`. */
export interface IamApi {
  readonly clients: ClientsApi;
}

/** Bind the IAM group to a transport. */
export function iamApi(t: Transport): IamApi {
  return Object.freeze({ clients: clientsApi(t) });
}
