/**
 * The IAM current client as each dialect answers it (CONTRACT.md "Dialects").
 *
 * Each function takes the answer the regular dialect builds and returns the answer to send:
 * unchanged for "regular", shaped as the public material allows for "public-api" (`dialect.ts`).
 */
import { isPublicApi, omit, withFuture, type SimulatorDialect } from "../dialect";
import type { JsonObject } from "../state";

/**
 * The current client. "public-api": `serviceStatuses` entries as the IAM OpenAPI allows them
 * (neither `status` nor `enabled` is required): `CDN` only `enabled`, `DNS` only `status`,
 * `DDOS` with `activating` (in the OpenAPI `ServiceStatus` enum, not in the Python SDK's),
 * an unknown field in `CLOUD` and at the top level. Other keys unchanged.
 */
export function clientAnswer(dialect: SimulatorDialect, client: JsonObject): JsonObject {
  if (!isPublicApi(dialect)) return client;
  const statuses = client.serviceStatuses;
  if (statuses === null || typeof statuses !== "object" || Array.isArray(statuses)) return withFuture(client);
  const shaped: JsonObject = {};
  for (const [service, entry] of Object.entries(statuses as JsonObject)) {
    const e = entry !== null && typeof entry === "object" ? (entry as JsonObject) : {};
    if (service === "CDN") shaped[service] = omit(e, ["status"]);
    else if (service === "DNS") shaped[service] = omit(e, ["enabled"]);
    else if (service === "DDOS") shaped[service] = { ...e, status: "activating" };
    else if (service === "CLOUD") shaped[service] = withFuture(e);
    else shaped[service] = entry;
  }
  return withFuture({ ...client, serviceStatuses: shaped });
}
