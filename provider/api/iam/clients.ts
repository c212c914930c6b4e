/** The calling account, for `getCurrentClient`: the cheapest check that a key works. */
import type { RequestOptions, Transport } from "../transport";
import { z } from "zod";
import { int, optionalBoolean, optionalInt, optionalList, optionalText, readonlyRecord, type Answer } from "../schema";

const serviceStatusFields = z.object({ status: optionalText, enabled: optionalBoolean }).transform((v) => ({
  /** Service status, as sent; null when not sent. */
  status: v.status,
  /** Whether the service is enabled for the client; null when not reported. */
  enabled: v.enabled,
}));

/** Status of one service for the account. */
export interface ServiceStatus extends Answer<typeof serviceStatusFields> {}

const serviceStatusSchema: z.ZodType<ServiceStatus> = serviceStatusFields;

/** Only `id` is required (spec, OpenAPI); both spellings are read where the wire has mixed camelCase and snake_case. */
export const currentClientSchema = z
  .object({
    id: int,
    email: optionalText,
    status: optionalText,
    name: optionalText,
    companyName: optionalText,
    company_name: optionalText,
    currentUser: optionalInt,
    current_user: optionalInt,
    capabilities: optionalList(z.string()),
    serviceStatuses: z
      .record(z.string(), serviceStatusSchema)
      .nullish()
      .transform((v) => readonlyRecord(v ?? {})),
    deleted: optionalBoolean,
    is_test: optionalBoolean,
  })
  .transform((w) => ({
    /** Client (account) id. */
    id: w.id,
    /** The account's email address; null when not sent. */
    email: w.email,
    /** Account holder's name, when set. */
    name: w.name,
    /** new, trial, active, paused, ... as sent; null when not sent. */
    status: w.status,
    /** Company name, when set. */
    companyName: w.companyName ?? w.company_name,
    /** Id of the user the key belongs to. */
    currentUser: w.currentUser ?? w.current_user,
    /** Capabilities of the account, as sent. */
    capabilities: w.capabilities,
    /** Keyed by service (CDN, CLOUD, DNS, ...), names kept as sent. */
    serviceStatuses: w.serviceStatuses,
    /** Whether the account is deleted; null when not reported. */
    deleted: w.deleted,
    /** Whether this is a test account; null when not reported. */
    isTest: w.is_test,
  }));

/** The calling account. */
export interface CurrentClient extends Answer<typeof currentClientSchema> {}

/** The IAM client functions. */
export interface ClientsApi {
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
