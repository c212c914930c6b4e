/**
 * The IAM current client in each dialect (CONTRACT.md "Dialects" row 8).
 */
import { omit, unchanged, withFuture, type ByDialect } from "../dialect";
import type { JsonObject } from "../state";

/** How a dialect shapes the IAM API's answers. */
export interface IamAnswers {
  /** The current client (`GET /iam/clients/me`). */
  client(client: JsonObject): JsonObject;
}

/** `serviceStatuses` entries as the IAM OpenAPI allows them (neither `status` nor `enabled` required). */
function publicClient(client: JsonObject): JsonObject {
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

/** The IAM answers of each dialect. */
export const iamAnswers: ByDialect<IamAnswers> = {
  regular: { client: unchanged },
  "public-api": { client: publicClient },
};
