/**
 * `getCurrentClient`: the account the configured API key belongs to.
 *
 * Why: programs need the client id (e.g. for storage notification events) and a cheap way to
 * prove the key works before creating anything.
 */
import type { CurrentClient } from "../api/iam/clients";
import type { LookupDefinition } from "./runtime";
import { ArgChecker } from "./validate";

/** Arguments of `getCurrentClient` (none). */
export interface GetCurrentClientArgs {}

/** Result of `getCurrentClient`: the calling account. */
export interface GetCurrentClientResult extends CurrentClient {}

/** `getCurrentClient`. */
export const getCurrentClientLookup: LookupDefinition<GetCurrentClientArgs, Record<string, never>, GetCurrentClientResult> = {
  name: "getCurrentClient",
  normalize(raw) {
    new ArgChecker("getCurrentClient", raw, []);
    return {};
  },
  execute: ({ client }) => client.iam.clients.me(),
};
