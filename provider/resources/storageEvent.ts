/**
 * The StorageEvent lifecycle: one object-storage notification threshold on the notification
 * endpoints (POST create, GET list as read, PUT update, DELETE delete).
 *
 * - The resource id is the server's `uuid`, and a resource touches only the event with its own
 *   uuid (there is no read-by-uuid: `read` lists and matches by uuid alone).
 * - Name, storage, bucket and client are the server's identity: changing one replaces; a limit
 *   change is a PUT in place. Nothing else is compared (not the serialized `__provider`).
 * - Create never takes over an existing event silently: one with the declared identity fails it
 *   before any write, naming its uuid and the ways to adopt it (`adoptUuid`, `pulumi import`).
 * - A failed or malformed list never means "absent" (`absence.ts`).
 * - A create that may have landed with its uuid unknown is partial state (`partial.ts`) under a
 *   provisional id naming its identity, which the next refresh, up or destroy resolves.
 * - A re-sent create answered 409 by an event with the declared identity and limit is our first
 *   send landing late: it becomes this resource's event.
 * - An event already gone counts as deleted (the API answers 400 "event not found").
 *
 * Create is in `storage/create.ts`, the list lookups in `storage/locate.ts`, the limit's PUT in
 * `storage/limitUpdate.ts`.
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
export { StorageEventGoneError } from "./storage/limitUpdate";

/** Values equal for diffing: absent, null and undefined are the same "unset". */
function sameValue(a: unknown, b: unknown): boolean {
  return (a ?? undefined) === (b ?? undefined);
}

/** By uuid, or by identity while its create is pending. */
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
 * A create recorded as pending (no uuid yet) diffs as an update, which finishes it. Replacement
 * creates first: the new identity differs from the old, so no 409 is possible.
 */
async function diff(_id: string, olds: StorageEventOutputs, wanted: StorageEventInputs): Promise<DiffResult> {
  const o = olds as unknown as Record<string, unknown>;
  const w = wanted as unknown as Record<string, unknown>;
  const replaces = IDENTITY_FIELDS.filter((f) => !sameValue(o[f], w[f]));
  const updates = LIMIT_FIELDS.filter((f) => !sameValue(o[f], w[f]));
  const pending = !olds.uuid;
  return {
    changes: replaces.length > 0 || updates.length > 0 || pending,
    replaces: [...replaces],
    diffs: [...replaces, ...updates, ...(pending ? ["uuid"] : [])],
    deleteBeforeReplace: false,
  };
}

/** Inputs: {@link checkStorageEventInputs}; rules: the module comment. `wanted` drops unset fields. */
export const storageEvent: ResourceLifecycle<StorageEventInputs, StorageEventOutputs> = {
  typeName: "StorageEvent",
  check: async (_ctx, news, unknown) => checkStorageEventInputs(news, unknown),
  diff,
  create: (ctx, wanted) => create(ctx, compactInputs(wanted)),
  read,
  update: (ctx, id, olds, wanted) => update(ctx, id, olds, compactInputs(wanted)),
  delete: remove,
};
