/**
 * IAM: `GET /iam/clients/me`, the calling client.
 *
 * Why: `getCurrentClient`, and the cheapest way to check that a key works.
 */
import type { RequestOptions, Transport } from "../transport";
import { z } from "zod";
import { int, optionalFlag, optionalInt, optionalList, optionalText, text } from "../schema";

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

/**
 * The calling account: the spec's `id`, `email` and `status` are required, the rest is open. The
 * wire mixes camelCase (`companyName`) and snake_case (`is_test`); both spellings are read where
 * the platform has used both.
 */
export const currentClientSchema = z
  .object({
    id: int,
    email: text,
    status: text,
    name: optionalText,
    companyName: optionalText,
    company_name: optionalText,
    currentUser: optionalInt,
    current_user: optionalInt,
    capabilities: optionalList(z.string()),
    serviceStatuses: z
      .record(z.string(), z.object({ status: z.string(), enabled: optionalFlag }))
      .nullish()
      .transform((v) => v ?? {}),
    deleted: optionalFlag,
    is_test: optionalFlag,
  })
  .transform(
    (w): CurrentClient => ({
      id: w.id,
      email: w.email,
      name: w.name,
      status: w.status,
      companyName: w.companyName ?? w.company_name,
      currentUser: w.currentUser ?? w.current_user,
      capabilities: w.capabilities,
      serviceStatuses: w.serviceStatuses,
      deleted: w.deleted,
      isTest: w.is_test,
    }),
  );

/** The IAM client functions. */
export interface ClientsApi {
  /** The account of the API key in use. */
  me(options?: RequestOptions): Promise<CurrentClient>;
}

/** Bind the IAM client functions to a transport. */
export function clientsApi(t: Transport): ClientsApi {
  return {
    async me(options) {
      const res = await t.request({ method: "GET", path: "/iam/clients/me", options, response: currentClientSchema });
      return res.data;
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
