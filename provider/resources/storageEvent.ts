/**
 * The StorageEvent lifecycle: one object-storage notification threshold, managed through the
 * notification endpoints (POST create, GET list as read, PUT update, DELETE delete).
 *
 * Why it looks like this:
 * - The resource id is the server-assigned `uuid`; there is no read-by-uuid, so `read` lists
 *   and matches by uuid, falling back to the identity (name + storage + bucket + client).
 * - Name, storage, bucket and client form the identity on the server, so changing one replaces
 *   the resource; a limit change is a PUT in place. The diff looks at these fields only, so a
 *   new build of this package (a different serialized `__provider`) never causes an update.
 * - A write that failed ambiguously (connection reset after sending, 5xx) is reconciled by
 *   listing, and sent again only when the list proves it took no effect (design "Retries").
 * - Create adopts an identical event that no resource of this run is creating (one a killed
 *   `pulumi up` created but never recorded), so an interruption never causes a second POST.
 * - An event already gone counts as deleted (the API answers 400 "event not found").
 */
import type { CloudPlatformClient, NotificationEvent, NotificationsApi } from "../api";
import type { DiffResult, LifecycleContext, ReadResult, ResourceLifecycle } from "./lifecycle";
import {
  EVENT_ENDPOINT,
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
import { isAmbiguousWrite, MAX_WRITE_ATTEMPTS, waitBeforeWriteAttempt } from "./writeAttempts";

export type { StorageEventInputs, StorageEventOutputs } from "./storage/types";
export { StorageEventConflictError } from "./storage/events";

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

/** Finds the stored event in a list: by uuid first, else by identity. */
function findEvent(events: readonly NotificationEvent[], uuid: string, identity: StorageEventInputs): NotificationEvent | undefined {
  return (uuid ? events.find((e) => e.uuid === uuid) : undefined) ?? events.find((e) => sameIdentity(e, identity));
}

/** Appends why reconciling did not settle an ambiguous write to the original error. */
function unresolved(err: Error, note: string): Error {
  err.message = `${err.message} ${note}`;
  return err;
}

/**
 * Identities this provider process is creating or has created in this run. Why: before
 * creating, `create` adopts an identical event that already exists (one a killed `pulumi up`
 * created but never recorded), but never one that another resource of this very run is
 * creating: two resources declaring the same event still get the clear 409 error.
 */
const claimedThisRun = new Set<string>();

/**
 * The event list as it stood when this run's first create began: one request per run (per
 * client, so per provider process), shared by concurrent creates. Orphans of an interrupted
 * run exist before this run starts, so that snapshot is all adoption needs; an event that
 * appears later is caught by the server's 409. A failed list is not kept.
 */
const listedBeforeCreates = new WeakMap<NotificationsApi, Promise<NotificationEvent[]>>();

function eventsBeforeThisRun(api: NotificationsApi): Promise<NotificationEvent[]> {
  let listed = listedBeforeCreates.get(api);
  if (!listed) {
    listed = api.list();
    listedBeforeCreates.set(api, listed);
    listed.catch(() => listedBeforeCreates.delete(api));
  }
  return listed;
}

function identityKey(e: StorageEventInputs): string {
  return JSON.stringify([e.name, e.storageName ?? "", e.bucketName ?? "", e.clientId ?? null]);
}

/**
 * Create: adopt an identical event (same identity and limit) from the list taken when this run's
 * creates began (one list per run) that no resource of
 * this run claimed, e.g. left by an interrupted `pulumi up`, so an interruption never causes a
 * second POST; otherwise POST. An ambiguous POST failure is reconciled by listing; only when the
 * list proves nothing was created is the POST sent again (up to MAX_WRITE_ATTEMPTS in all).
 */
async function create(ctx: LifecycleContext, inputs: StorageEventInputs): Promise<{ id: string; outs: StorageEventOutputs }> {
  const api = notifications(ctx);
  const wanted = compactInputs(inputs);
  const key = identityKey(wanted);
  const claimedByAnother = claimedThisRun.has(key);
  claimedThisRun.add(key);
  if (!claimedByAnother) {
    const existing = (await eventsBeforeThisRun(api)).find((e) => sameIdentity(e, wanted));
    if (existing?.uuid && sameLimit(existing, wanted)) {
      ctx.log(
        `${describeEvent(wanted)}: an identical event already exists (uuid ${existing.uuid}), for instance created by an interrupted \`pulumi up\`; adopting it instead of creating it again`,
      );
      return { id: existing.uuid, outs: toOutputs(wanted, existing.uuid) };
    }
  }
  let created: NotificationEvent | undefined;
  let ambiguousBefore = false;
  for (let attempt = 1; created === undefined; attempt++) {
    try {
      created = await api.create(toEventBody(wanted), { clientId: wanted.clientId });
    } catch (err) {
      if (isConflict(err)) {
        const existing = await api.list().then(
          (events) => events.find((e) => sameIdentity(e, wanted)),
          () => undefined, // the 409 itself is the news; the list only adds detail
        );
        // An earlier attempt of ours that arrived late: the event is there with our limit.
        if (ambiguousBefore && existing?.uuid && sameLimit(existing, wanted)) {
          ctx.log(`${describeEvent(wanted)}: an earlier attempt arrived after all (uuid ${existing.uuid}); adopting it`);
          created = existing;
          break;
        }
        throw new StorageEventConflictError(wanted, existing, err);
      }
      if (!isAmbiguousWrite(err)) throw err;
      ambiguousBefore = true;
      ctx.log(`${describeEvent(wanted)}: the create call failed without a usable answer (${err.message}); listing events to see whether it took effect`);
      const found = (await api.list()).find((e) => sameIdentity(e, wanted));
      if (found) {
        if (!sameLimit(found, wanted)) throw new StorageEventConflictError(wanted, found, err);
        ctx.log(`${describeEvent(wanted)}: found it created (uuid ${found.uuid ?? "not shown"}); adopting it instead of sending the create again`);
        created = found;
        break;
      }
      if (attempt >= MAX_WRITE_ATTEMPTS) {
        throw unresolved(err, `The event list shows no ${describeEvent(wanted)} after ${attempt} attempts, so nothing was created; it is safe to run \`pulumi up\` again.`);
      }
      ctx.log(`${describeEvent(wanted)}: the event list shows nothing was created; sending the create again (attempt ${attempt + 1} of ${MAX_WRITE_ATTEMPTS})`);
      await waitBeforeWriteAttempt(attempt + 1);
    }
  }
  let uuid = created.uuid;
  if (!uuid) {
    // The server did not echo a uuid: look it up, so update and delete can address the event.
    uuid = (await api.list()).find((e) => sameIdentity(e, wanted))?.uuid ?? null;
  }
  if (!uuid) {
    throw new Error(
      `POST ${EVENT_ENDPOINT} created ${describeEvent(wanted)} but neither the answer nor the event list shows its uuid, ` +
        "so this resource cannot track it. Delete the event outside Pulumi before running `pulumi up` again.",
    );
  }
  return { id: uuid, outs: toOutputs(wanted, uuid) };
}

async function read(ctx: LifecycleContext, id: string, outs: StorageEventOutputs): Promise<ReadResult<StorageEventInputs, StorageEventOutputs> | undefined> {
  const events = await notifications(ctx).list();
  const ev = findEvent(events, uuidOf(id, outs), compactInputs(outs));
  if (!ev) return undefined;
  const inputs = liveInputs(ev, outs.clientId);
  const uuid = ev.uuid || uuidOf(id, outs);
  return { id: uuid, outs: toOutputs(inputs, uuid), inputs };
}

async function update(ctx: LifecycleContext, id: string, olds: StorageEventOutputs, news: StorageEventInputs): Promise<StorageEventOutputs> {
  const api = notifications(ctx);
  const wanted = compactInputs(news);
  const uuid = uuidOf(id, olds);
  for (let attempt = 1; ; attempt++) {
    try {
      await api.update(toEventBody(wanted, uuid), { clientId: wanted.clientId });
      break;
    } catch (err) {
      if (isEventGone(err)) {
        throw new Error(
          `Cannot update storage event ${describeEvent(wanted)} (uuid ${uuid}): it no longer exists on the server (deleted outside Pulumi). ` +
            "Run `pulumi refresh` (or `pulumi up --refresh`) so Pulumi notices and creates it again. " +
            `(${err instanceof Error ? err.message : String(err)})`,
        );
      }
      if (!isAmbiguousWrite(err)) throw err;
      ctx.log(`${describeEvent(wanted)}: the update call failed without a usable answer (${err.message}); listing events to see whether it took effect`);
      const found = (await api.list()).find((e) => e.uuid === uuid);
      if (found && sameLimit(found, wanted)) break;
      if (!found || attempt >= MAX_WRITE_ATTEMPTS) {
        throw unresolved(err, "The event list does not show the new limit, so the update did not take effect; it is safe to run `pulumi up` again.");
      }
      ctx.log(`${describeEvent(wanted)}: the event list shows the old limit; sending the update again (attempt ${attempt + 1} of ${MAX_WRITE_ATTEMPTS})`);
      await waitBeforeWriteAttempt(attempt + 1);
    }
  }
  return toOutputs(wanted, uuid);
}

async function remove(ctx: LifecycleContext, id: string, outs: StorageEventOutputs): Promise<void> {
  const api = notifications(ctx);
  const stored = compactInputs(outs);
  const uuid = uuidOf(id, outs);
  // Identity fields go along with the uuid: the API's Event body requires a name.
  const body = { ...toEventBody(stored, uuid), bytes: undefined, count: undefined };
  for (let attempt = 1; ; attempt++) {
    try {
      await api.delete(body, { clientId: stored.clientId });
      return;
    } catch (err) {
      if (isEventGone(err)) {
        ctx.log(`${describeEvent(stored)} (uuid ${uuid}) was already gone; nothing to delete`);
        return;
      }
      if (!isAmbiguousWrite(err)) throw err;
      ctx.log(`${describeEvent(stored)}: the delete call failed without a usable answer (${err.message}); listing events to see whether it took effect`);
      const still = findEvent(await api.list(), uuid, stored);
      if (!still) return;
      if (attempt >= MAX_WRITE_ATTEMPTS) throw unresolved(err, "The event is still listed, so it was not deleted; it is safe to run the command again.");
      ctx.log(`${describeEvent(stored)}: still listed; sending the delete again (attempt ${attempt + 1} of ${MAX_WRITE_ATTEMPTS})`);
      await waitBeforeWriteAttempt(attempt + 1);
    }
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
 * The StorageEvent lifecycle, registered in `provider/dynamic/runtime.ts` as `StorageEvent`.
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
