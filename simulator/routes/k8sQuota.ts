/**
 * `POST /cloud/v2/k8s/clusters/{project_id}/{region_id}/pools/check_limits`: would a new node
 * pool fit the project's quota? (CONTRACT.md "Quotas".)
 *
 * Written from the public OpenAPI (`K8sClusterPoolCheckLimitsV2.post`): the body is
 * `K8sClusterCheckLimitsPoolV2Serializer` (`flavor_id` required; `node_count`,
 * `min_node_count`, `max_node_count` integers 1..200 or null, defaults 1, 1, null; `name`,
 * `boot_volume_size`, `servergroup_policy` optional), the answer
 * `K8sClusterQuotaResponseSerializer`: `<quota>_limit`, `<quota>_usage` and `<quota>_requested`
 * for each quota the pool would exceed, `{}` when none. Nothing is written.
 */
import { cloudError } from "../errors";
import { excessOf } from "../quotas";
import type { RouteContext } from "../router";
import { ok } from "../routeResult";
import { isObject } from "../state";
import { requireScope, scopeOf } from "./cloud";

/** The node counts the OpenAPI allows (`minimum: 1`, `maximum: 200`). */
const MIN_NODES = 1;
const MAX_NODES = 200;

/** Reads one optional node count of the body into `invalid` when it is not 1..200 or null. */
function nodeCount(body: Record<string, unknown>, key: string, def: number | null, invalid: Record<string, string[]>): number | null {
  const v = body[key];
  if (v === undefined || v === null) return def;
  if (typeof v === "number" && Number.isInteger(v) && v >= MIN_NODES && v <= MAX_NODES) return v;
  invalid[key] = [`Must be an integer from ${MIN_NODES} to ${MAX_NODES}.`];
  return def;
}

/** Answers the quotas a new pool of the body's flavor and size would exceed. */
export function checkLimits(ctx: RouteContext) {
  const { projectId, regionId } = requireScope(ctx, scopeOf(ctx));
  const body = isObject(ctx.body) ? ctx.body : {};
  const invalid: Record<string, string[]> = {};
  const flavorId = body.flavor_id;
  if (typeof flavorId !== "string" || flavorId === "") invalid.flavor_id = ["This field is required."];
  const nodes = nodeCount(body, "node_count", 1, invalid);
  nodeCount(body, "min_node_count", 1, invalid);
  nodeCount(body, "max_node_count", null, invalid);
  if (Object.keys(invalid).length > 0) {
    throw cloudError(400, "ValidationError", `Invalid pool: ${Object.keys(invalid).join(", ")}`, ctx.requestId, { invalid_fields: invalid });
  }
  const state = ctx.sim.store.state;
  if (!state.flavors.some((f) => f.flavor_id === flavorId)) {
    throw cloudError(400, "ValidationError", `Flavor ${String(flavorId)} could not be found in region ${regionId}`, ctx.requestId, {
      invalid_fields: { flavor_id: [`Unknown flavor ${String(flavorId)}.`] },
    });
  }
  const answer: Record<string, unknown> = {};
  for (const e of excessOf(state, projectId, { flavor_id: flavorId as string, node_count: nodes ?? 1 })) {
    answer[`${e.quota}_limit`] = e.limit;
    answer[`${e.quota}_usage`] = e.usage;
    answer[`${e.quota}_requested`] = e.requested;
  }
  return ok(ctx.sim.answers.object(answer));
}
