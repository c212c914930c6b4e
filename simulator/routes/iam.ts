/**
 * Identity: the calling client (spec "Get current client").
 *
 * The spec's recommended way to verify a token, so it must honour auth like every other route
 * (the server does that before dispatch).
 */
import type { Route, RouteContext } from "../router";
import { ok } from "../routeResult";

function me(ctx: RouteContext) {
  return ok(ctx.sim.answers.iam.client(ctx.sim.store.state.client));
}

/** IAM routes. */
export const iamRoutes: Route[] = [{ method: "GET", pattern: /^\/iam\/clients\/me\/?$/, handler: me }];
