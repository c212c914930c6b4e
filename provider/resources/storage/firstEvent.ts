/**
 * The first event of an account: a create whose pre-check read the event list as `{}`.
 *
 * Why: the public OpenAPI (`object_storage_api.yaml`, `EventsResponse`) requires none of the
 * four event kinds, so an account without events may answer `GET .../events` with `{}`; but so
 * may a gateway in front of an account full of events, and a create sent on that reading could
 * duplicate an event. The platform answers a create of an existing identity with 409 (the
 * OpenAPI declares the 409 without its condition), and since that is not documented, after the
 * create a list that shows its kinds must show no other event of the identity. If it does, the
 * event just made is deleted again (this run's own, a moment old, nothing refers to it) and the
 * create fails naming the other one; if the list cannot tell even after the settle delay, the
 * event is recorded as this resource's and the create fails as partial state.
 */
import { messageOf } from "../../caughtErrors";
import type { NotificationEvent } from "../../api";
import type { LifecycleContext } from "../lifecycle";
import { PartialResourceError } from "../partial";
import { describeEvent, sameIdentity, StorageEventConflictError, toEventBody, toOutputs } from "./events";
import { isDescribed, notifications, withoutKindsProblem } from "./locate";
import type { StorageEventInputs } from "./types";

/** What a list read after the create shows about the identity. */
type AfterCreate = { readonly kind: "only" } | { readonly kind: "duplicate"; readonly other: NotificationEvent } | { readonly kind: "unclear"; readonly reason: string };

async function look(ctx: LifecycleContext, wanted: StorageEventInputs, uuid: string): Promise<AfterCreate> {
  let events: readonly NotificationEvent[];
  try {
    events = await ctx.run.eventLists.get("fresh", () => notifications(ctx).list());
  } catch (err) {
    return { kind: "unclear", reason: `the list could not be read: ${messageOf(err)}` };
  }
  const problem = withoutKindsProblem(events);
  if (problem) return { kind: "unclear", reason: problem };
  const anonymous = events.filter((e) => !isDescribed(e)).length;
  if (anonymous > 0) return { kind: "unclear", reason: `the list has ${anonymous} item(s) without their identifying fields` };
  const other = events.find((e) => e.uuid !== uuid && sameIdentity(e, wanted));
  return other ? { kind: "duplicate", other } : { kind: "only" };
}

/**
 * After a create made event `uuid` on a pre-check that read `{}`: returns when a list with its
 * kinds shows no other event of the identity; otherwise throws (see the module comment).
 */
export async function confirmOnlyOfItsIdentity(ctx: LifecycleContext, wanted: StorageEventInputs, uuid: string): Promise<void> {
  let seen = await look(ctx, wanted, uuid);
  if (seen.kind === "unclear") {
    await ctx.run.writeTiming.sleep(ctx.run.writeTiming.settleMs, ctx.signal);
    seen = await look(ctx, wanted, uuid);
  }
  if (seen.kind === "only") return;
  if (seen.kind === "duplicate") return undoDuplicate(ctx, wanted, uuid, seen.other);
  const reason = `the event list read after it cannot tell whether another event has this identity (${seen.reason})`;
  throw new PartialResourceError(
    `Created storage event ${uuid} (${describeEvent(wanted)}) after the event list answered {} (no event kind), as an account without events does, but ${reason}. ` +
      "The stack records the event as this resource's; if the platform shows a second event with this identity, delete the one you do not want.",
    uuid,
    toOutputs(wanted, uuid),
    [reason],
  );
}

/** Deletes this run's event `uuid`, a duplicate of `other`, and fails naming `other`. */
async function undoDuplicate(ctx: LifecycleContext, wanted: StorageEventInputs, uuid: string, other: NotificationEvent): Promise<never> {
  const body = { ...toEventBody(wanted, uuid), bytes: undefined, count: undefined };
  try {
    await ctx.run.eventLists.written("delete", notifications(ctx).delete(body, { clientId: wanted.clientId }, { signal: ctx.signal }));
  } catch (err) {
    const reason = `the event list then showed event ${String(other.uuid ?? "(no uuid)")} with the same identity, and deleting the new one failed: ${messageOf(err)}`;
    throw new PartialResourceError(
      `Created storage event ${uuid} (${describeEvent(wanted)}) after the event list answered {}, but ${reason}. The stack records ${uuid}; delete one of the two.`,
      uuid,
      toOutputs(wanted, uuid),
      [reason],
      err,
    );
  }
  ctx.log(`${describeEvent(wanted)}: the event list answered {} before the create, and afterwards showed another event with this identity; the new event ${uuid} was deleted again`);
  throw new StorageEventConflictError(wanted, other, "exists", new Error(`the create went ahead because the event list answered {}; the event it made, ${uuid}, was deleted again`));
}
