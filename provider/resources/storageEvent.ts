/**
 * The StorageEvent lifecycle: one object-storage notification threshold, managed through the
 * notification endpoints (POST create, GET list as read, PUT update, DELETE delete).
 *
 * Why it looks like this:
 * - The resource id is the server-assigned `uuid`, and a resource only ever touches the event
 *   with its own uuid: there is no read-by-uuid, so `read` lists and matches by uuid alone. An
 *   event with the same identity but another uuid belongs to someone else and is never taken.
 * - Name, storage, bucket and client form the identity on the server, so changing one replaces
 *   the resource; a limit change is a PUT in place. The diff looks at these fields only, so a
 *   new build of this package (a different serialized `__provider`) never causes an update.
 * - Create never takes over an existing event silently: an event with the declared identity
 *   makes it fail before any write, naming the event's uuid and the explicit ways to take it
 *   over (`adoptUuid`, or `pulumi import` on the plugin path) or to keep it apart (an alias).
 * - Every write goes through {@link reconcileWrite}: after an ambiguous failure it lets the
 *   request settle, reads back, and sends again only when the list proves it took no effect.
 * - A malformed answer never means "absent" (`absence.ts`): `read` reports the event gone only
 *   when a well-formed list lacks it; the create pre-check, every write probe and the delete
 *   probe treat a failed or malformed list as "unclear": no write, a clear error, the resource
 *   kept in the stack.
 * - A create whose POST may have landed but whose uuid is not known (its answer lacked it and the
 *   list could not show it, or reading back could not tell) is reported as partial state
 *   (`partial.ts`) under a provisional id that names its identity: the stack records it, and the
 *   next `refresh`, `up` or `destroy` finds it by that identity (the pre-check proved no other
 *   event had it before our POST), so no event is orphaned.
 * - A re-sent create answered 409 by an event with the declared identity and limit is our first
 *   send landing late: it becomes this resource's event.
 * - An event already gone counts as deleted (the API answers 400 "event not found").
 *
 * This module holds read, update, delete and diff; the create is in `storage/create.ts`, the
 * lookups in the event list in `storage/locate.ts`, the limit's PUT in `storage/limitUpdate.ts`.
 */
import type { DiffResult, LifecycleContext, ReadResult, ResourceLifecycle } from "./lifecycle";
import { compactInputs, describeEvent, liveInputs, sameLimit, toEventBody, toOutputs } from "./storage/events";
import { claimAndCreate, create } from "./storage/create";
import { putLimit } from "./storage/limitUpdate";
import { describeOwn, locateByUuid, locateOwn, notifications, uuidOf } from "./storage/locate";
import { IDENTITY_FIELDS, LIMIT_FIELDS, type StorageEventInputs, type StorageEventOutputs } from "./storage/types";
import { checkStorageEventInputs } from "./storage/validation";
import { isEventNotFoundAnswer, PresenceUnclearError } from "./absence";
import { reconcileWrite } from "./writeAttempts";

export type { StorageEventInputs, StorageEventOutputs } from "./storage/types";
export { StorageEventAdoptionError, StorageEventConflictError } from "./storage/events";

/** Values equal for diffing: absent, null and undefined are the same "unset". */
function sameValue(a: unknown, b: unknown): boolean {
  return (a ?? undefined) === (b ?? undefined);
}

/**
 * Read: the event this resource owns (by uuid; by identity while its create is pending). Gone
 * only when a well-formed list lacks it; a failed or malformed list is an error that leaves the
 * resource in the stack as recorded.
 */
async function read(ctx: LifecycleContext, id: string, outs: StorageEventOutputs): Promise<ReadResult<StorageEventInputs, StorageEventOutputs> | undefined> {
  const found = await locateOwn(() => ctx.run.eventLists.get("read", () => notifications(ctx).list()), id, outs);
  if (found.state === "unclear") throw new PresenceUnclearError(describeOwn(id, outs), "the resource stays in the stack as recorded", found.reason, found.cause);
  if (found.state === "absent") return undefined;
  const uuid = String(found.value.uuid);
  const inputs = liveInputs(found.value, outs);
  return { id: uuid, outs: toOutputs(inputs, uuid), inputs };
}

async function update(ctx: LifecycleContext, id: string, olds: StorageEventOutputs, wanted: StorageEventInputs): Promise<StorageEventOutputs> {
  const uuid = uuidOf(id, olds);
  if (!uuid) return finishPendingCreate(ctx, id, olds, wanted);
  if (!sameLimit({ bytes: olds.bytes, count: olds.count }, wanted)) await putLimit(ctx, uuid, wanted);
  return toOutputs(wanted, uuid);
}

/**
 * The update the engine runs on a resource recorded as pending (a create that may have landed
 * with its uuid unknown): find the event by identity and record it (its limit set to the
 * declared one), or, when a well-formed list proves it never landed, create it now.
 */
async function finishPendingCreate(ctx: LifecycleContext, id: string, olds: StorageEventOutputs, wanted: StorageEventInputs): Promise<StorageEventOutputs> {
  const found = await locateOwn(() => ctx.run.eventLists.get("fresh", () => notifications(ctx).list()), id, olds);
  if (found.state === "unclear") throw new PresenceUnclearError(describeOwn(id, olds), "nothing was written; the resource stays in the stack as pending", found.reason, found.cause);
  if (found.state === "absent") {
    ctx.log(`${describeEvent(wanted)}: the earlier create never landed (the event list does not show it); creating it now`);
    return (await claimAndCreate(ctx, wanted)).outs;
  }
  const uuid = String(found.value.uuid);
  ctx.log(`${describeEvent(wanted)}: found event ${uuid}, made by the earlier create; recording it`);
  if (!sameLimit(found.value, wanted)) await putLimit(ctx, uuid, wanted);
  return toOutputs(wanted, uuid);
}

/**
 * Deletes the event this resource owns, by its uuid, and nothing else. An event adopted by
 * another resource in this run (the new name of a renamed resource) is left to it.
 */
async function remove(ctx: LifecycleContext, id: string, outs: StorageEventOutputs): Promise<void> {
  const api = notifications(ctx);
  const stored = compactInputs(outs);
  let uuid = uuidOf(id, outs);
  if (!uuid) {
    const found = await locateOwn(() => ctx.run.eventLists.get("fresh", () => api.list()), id, outs);
    if (found.state === "unclear") throw new PresenceUnclearError(describeOwn(id, outs), "nothing was deleted; the resource stays in the stack", found.reason, found.cause);
    if (found.state === "absent") {
      ctx.log(`${describeEvent(stored)}: its create never landed (the event list does not show it); nothing to delete`);
      return;
    }
    uuid = String(found.value.uuid);
  }
  const owned = uuid;
  if (ctx.run.adoptedEvents.has(owned)) {
    ctx.log(`${describeEvent(stored)} (uuid ${owned}) was adopted by another resource in this run; leaving the event to it`);
    return;
  }
  // Identity fields go along with the uuid: the API's Event body requires a name.
  const body = { ...toEventBody(stored, owned), bytes: undefined, count: undefined };
  try {
    await reconcileWrite<void>(
      {
        what: `the delete of ${describeEvent(stored)} (uuid ${owned})`,
        send: (_attempt, options) => ctx.run.eventLists.written("delete", api.delete(body, { clientId: stored.clientId }, options)),
        probe: async () => {
          const found = await locateByUuid(() => ctx.run.eventLists.get("fresh", () => api.list()), owned);
          if (found.state === "unclear") return { outcome: "unclear", reason: found.reason };
          return found.state === "present" ? { outcome: "absent" } : { outcome: "applied", value: undefined };
        },
        log: (line) => ctx.log(line),
        signal: ctx.signal,
      },
      ctx.run.writeTiming,
    );
  } catch (err) {
    if (!isEventNotFoundAnswer(err)) throw err;
    ctx.log(`${describeEvent(stored)} (uuid ${owned}) was already gone; nothing to delete`);
  }
}

/**
 * Diff: identity changes (name, storageName, bucketName, clientId) replace; limit changes
 * (bytes, count) update in place; a create recorded as pending (no uuid yet) updates, which
 * finishes it; nothing else (not the serialized provider) counts.
 * Replacement creates first: the new identity differs from the old, so no 409 is possible.
 */
async function diff(_id: string, olds: StorageEventOutputs, wanted: StorageEventInputs): Promise<DiffResult> {
  const o = olds as unknown as Record<string, unknown>;
  const w = wanted as unknown as Record<string, unknown>;
  const replaces = IDENTITY_FIELDS.filter((f) => !sameValue(o[f], w[f]));
  const updates = LIMIT_FIELDS.filter((f) => !sameValue(o[f], w[f]));
  // A create recorded as pending (partial state, no uuid yet) is finished by an update.
  const pending = !olds.uuid;
  return {
    changes: replaces.length > 0 || updates.length > 0 || pending,
    replaces: [...replaces],
    diffs: [...replaces, ...updates, ...(pending ? ["uuid"] : [])],
    deleteBeforeReplace: false,
  };
}

/**
 * The StorageEvent lifecycle; inputs and rules: {@link checkStorageEventInputs} and the module
 * comment. The declared inputs of a create or update travel on as `wanted`, without unset fields.
 */
export const storageEvent: ResourceLifecycle<StorageEventInputs, StorageEventOutputs> = {
  typeName: "StorageEvent",
  check: async (_ctx, news, unknown) => checkStorageEventInputs(news, unknown),
  diff,
  create: (ctx, wanted) => create(ctx, compactInputs(wanted)),
  read,
  update: (ctx, id, olds, wanted) => update(ctx, id, olds, compactInputs(wanted)),
  delete: remove,
};
