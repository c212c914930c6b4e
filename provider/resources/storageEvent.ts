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
 * - An event already gone counts as deleted (the API answers 400 "event not found").
 */
import type { CloudPlatformClient, NotificationEvent, NotificationsApi } from "../api";
import type { DiffResult, LifecycleContext, ReadResult, ResourceLifecycle } from "./lifecycle";
import {
  EVENT_ENDPOINT,
  StorageEventAdoptionError,
  StorageEventConflictError,
  compactInputs,
  describeEvent,
  isConflict,
  isEventGone,
  liveInputs,
  sameIdentity,
  sameLimit,
  toEventBody,
  toOutputs,
} from "./storage/events";
import { IDENTITY_FIELDS, LIMIT_FIELDS, type StorageEventInputs, type StorageEventOutputs } from "./storage/types";
import { checkStorageEventInputs } from "./storage/validation";
import { reconcileWrite } from "./writeAttempts";

export type { StorageEventInputs, StorageEventOutputs } from "./storage/types";
export { StorageEventAdoptionError, StorageEventConflictError } from "./storage/events";

function notifications(ctx: LifecycleContext): NotificationsApi {
  const client: CloudPlatformClient = ctx.client();
  return client.storage.notifications;
}

/** Values equal for diffing: absent, null and undefined are the same "unset". */
function sameValue(a: unknown, b: unknown): boolean {
  return (a ?? undefined) === (b ?? undefined);
}

/** The uuid of a stored event: the outputs' uuid, else the resource id. */
function uuidOf(id: string, outs: Partial<StorageEventOutputs>): string {
  return outs.uuid || id;
}

function byUuid(events: readonly NotificationEvent[], uuid: string): NotificationEvent | undefined {
  return events.find((e) => e.uuid === uuid);
}

function identityKey(e: StorageEventInputs): string {
  return JSON.stringify([e.name, e.storageName ?? "", e.bucketName ?? "", e.clientId ?? null]);
}

/**
 * Create: with `adoptUuid`, take over that event (verified to have the declared identity; its
 * limit set to the declared one) without any POST. Otherwise fail before any write when this
 * run already creates the same identity or the list shows an event with it, and else POST.
 */
async function create(ctx: LifecycleContext, inputs: StorageEventInputs): Promise<{ id: string; outs: StorageEventOutputs }> {
  const wanted = compactInputs(inputs);
  if (wanted.adoptUuid) return adopt(ctx, wanted, wanted.adoptUuid);
  const key = identityKey(wanted);
  if (ctx.run.claimedEvents.has(key)) throw new StorageEventConflictError(wanted, undefined, "declared-twice");
  ctx.run.claimedEvents.add(key);
  try {
    return await createNew(ctx, wanted);
  } catch (err) {
    ctx.run.claimedEvents.delete(key);
    throw err;
  }
}

async function createNew(ctx: LifecycleContext, wanted: StorageEventInputs): Promise<{ id: string; outs: StorageEventOutputs }> {
  const api = notifications(ctx);
  const lists = ctx.run.eventLists;
  const listNow = (): Promise<NotificationEvent[]> => lists.get("fresh", () => api.list());
  const inTheWay = (await lists.get("create-check", () => api.list())).find((e) => sameIdentity(e, wanted));
  if (inTheWay) throw new StorageEventConflictError(wanted, inTheWay, "exists");

  let resent = false;
  let created: NotificationEvent;
  try {
    created = await reconcileWrite<NotificationEvent>(
      {
        what: `the create of ${describeEvent(wanted)}`,
        send: (attempt) => {
          resent = attempt > 1;
          return lists.written("create", api.create(toEventBody(wanted), { clientId: wanted.clientId }));
        },
        probe: async () => {
          const found = (await listNow()).find((e) => sameIdentity(e, wanted));
          if (!found) return { outcome: "absent" };
          if (!sameLimit(found, wanted)) return { outcome: "conflict", error: new StorageEventConflictError(wanted, found, "exists") };
          return { outcome: "applied", value: found };
        },
        log: (line) => ctx.log(line),
      },
      ctx.run.writeTiming,
    );
  } catch (err) {
    if (!isConflict(err)) throw err;
    // The 409 itself is the news; the list only adds the uuid to the message.
    const existing = await listNow().then((events) => events.find((e) => sameIdentity(e, wanted)), () => undefined);
    throw new StorageEventConflictError(wanted, existing, resent ? "after-resend" : "exists", err);
  }
  // The server may not echo a uuid (the spec does not say): look it up, so update and delete can address the event.
  const uuid = created.uuid || (await listNow()).find((e) => sameIdentity(e, wanted))?.uuid;
  if (!uuid) {
    throw new Error(
      `POST ${EVENT_ENDPOINT} created ${describeEvent(wanted)} but neither the answer nor the event list shows its uuid, ` +
        "so this resource cannot track it. Delete the event outside Pulumi before running `pulumi up` again.",
    );
  }
  return { id: uuid, outs: toOutputs(wanted, uuid) };
}

/**
 * Takes over the event `uuid` (the user said so with `adoptUuid`): it must exist with the
 * declared identity. Its limit becomes the declared one (a PUT only when it differs). The uuid is
 * recorded in the run, so the delete of a resource that held it before (a rename) leaves it.
 */
async function adopt(ctx: LifecycleContext, wanted: StorageEventInputs, uuid: string): Promise<{ id: string; outs: StorageEventOutputs }> {
  const api = notifications(ctx);
  const existing = byUuid(await ctx.run.eventLists.get("fresh", () => api.list()), uuid);
  if (!existing || !sameIdentity(existing, wanted)) throw new StorageEventAdoptionError(wanted, existing);
  ctx.run.adoptedEvents.add(uuid);
  if (!sameLimit(existing, wanted)) {
    ctx.log(`${describeEvent(wanted)}: adopting event ${uuid} and setting its limit to the declared one`);
    await putLimit(ctx, uuid, wanted);
  } else {
    ctx.log(`${describeEvent(wanted)}: adopted existing event ${uuid}; nothing was created`);
  }
  return { id: uuid, outs: toOutputs(wanted, uuid) };
}

async function read(ctx: LifecycleContext, id: string, outs: StorageEventOutputs): Promise<ReadResult<StorageEventInputs, StorageEventOutputs> | undefined> {
  const uuid = uuidOf(id, outs);
  const api = notifications(ctx);
  const ev = byUuid(await ctx.run.eventLists.get("read", () => api.list()), uuid);
  if (!ev) return undefined;
  const inputs = liveInputs(ev, outs);
  return { id: uuid, outs: toOutputs(inputs, uuid), inputs };
}

/** PUTs the declared limit to the event `uuid`, reconciling an ambiguous failure by listing. */
async function putLimit(ctx: LifecycleContext, uuid: string, wanted: StorageEventInputs): Promise<void> {
  const api = notifications(ctx);
  const lists = ctx.run.eventLists;
  try {
    await reconcileWrite<void>(
      {
        what: `the update of ${describeEvent(wanted)} (uuid ${uuid})`,
        send: () => lists.written("update", api.update(toEventBody(wanted, uuid), { clientId: wanted.clientId })),
        probe: async () => {
          const found = byUuid(await lists.get("fresh", () => api.list()), uuid);
          if (!found) return { outcome: "unclear", reason: "the event is no longer listed" };
          return sameLimit(found, wanted) ? { outcome: "applied", value: undefined } : { outcome: "absent" };
        },
        log: (line) => ctx.log(line),
      },
      ctx.run.writeTiming,
    );
  } catch (err) {
    if (!isEventGone(err)) throw err;
    throw new Error(
      `Cannot update storage event ${describeEvent(wanted)} (uuid ${uuid}): it no longer exists on the server (deleted outside Pulumi). ` +
        "Run `pulumi refresh` (or `pulumi up --refresh`) so Pulumi notices and creates it again. " +
        `(${err instanceof Error ? err.message : String(err)})`,
    );
  }
}

async function update(ctx: LifecycleContext, id: string, olds: StorageEventOutputs, news: StorageEventInputs): Promise<StorageEventOutputs> {
  const wanted = compactInputs(news);
  const uuid = uuidOf(id, olds);
  if (!sameLimit({ bytes: olds.bytes, count: olds.count }, wanted)) await putLimit(ctx, uuid, wanted);
  return toOutputs(wanted, uuid);
}

/**
 * Deletes the event this resource owns, by its uuid, and nothing else. An event adopted by
 * another resource in this run (the new name of a renamed resource) is left to it.
 */
async function remove(ctx: LifecycleContext, id: string, outs: StorageEventOutputs): Promise<void> {
  const api = notifications(ctx);
  const stored = compactInputs(outs);
  const uuid = uuidOf(id, outs);
  if (ctx.run.adoptedEvents.has(uuid)) {
    ctx.log(`${describeEvent(stored)} (uuid ${uuid}) was adopted by another resource in this run; leaving the event to it`);
    return;
  }
  // Identity fields go along with the uuid: the API's Event body requires a name.
  const body = { ...toEventBody(stored, uuid), bytes: undefined, count: undefined };
  try {
    await reconcileWrite<void>(
      {
        what: `the delete of ${describeEvent(stored)} (uuid ${uuid})`,
        send: () => ctx.run.eventLists.written("delete", api.delete(body, { clientId: stored.clientId })),
        probe: async () =>
          byUuid(await ctx.run.eventLists.get("fresh", () => api.list()), uuid) ? { outcome: "absent" } : { outcome: "applied", value: undefined },
        log: (line) => ctx.log(line),
      },
      ctx.run.writeTiming,
    );
  } catch (err) {
    if (!isEventGone(err)) throw err;
    ctx.log(`${describeEvent(stored)} (uuid ${uuid}) was already gone; nothing to delete`);
  }
}

/**
 * Diff: identity changes (name, storageName, bucketName, clientId) replace; limit changes
 * (bytes, count) update in place; nothing else (not the serialized provider) counts.
 * Replacement creates first: the new identity differs from the old, so no 409 is possible.
 */
async function diff(_id: string, olds: StorageEventOutputs, news: StorageEventInputs): Promise<DiffResult> {
  const o = olds as unknown as Record<string, unknown>;
  const n = news as unknown as Record<string, unknown>;
  const replaces = IDENTITY_FIELDS.filter((f) => !sameValue(o[f], n[f]));
  const updates = LIMIT_FIELDS.filter((f) => !sameValue(o[f], n[f]));
  return { changes: replaces.length > 0 || updates.length > 0, replaces: [...replaces], deleteBeforeReplace: false };
}

/**
 * The StorageEvent lifecycle, registered as `StorageEvent` in `provider/dynamic/runtime.ts`
 * and `provider/plugin/resourceTypes.ts`.
 * Inputs and rules: see {@link checkStorageEventInputs} and the module comment.
 */
export const storageEvent: ResourceLifecycle<StorageEventInputs, StorageEventOutputs> = {
  typeName: "StorageEvent",
  check: async (_ctx, news, unknown) => checkStorageEventInputs(news, unknown),
  diff,
  create,
  read,
  update,
  delete: remove,
};
