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
 */
import type { CloudPlatformClient, NotificationEvent, NotificationsApi } from "../api";
import type { DiffResult, LifecycleContext, ReadResult, ResourceLifecycle } from "./lifecycle";
import {
  EVENT_ENDPOINT,
  EVENT_LIST_CALL,
  StorageEventAdoptionError,
  StorageEventConflictError,
  compactInputs,
  describeEvent,
  isConflict,
  liveInputs,
  sameIdentity,
  sameLimit,
  toEventBody,
  toOutputs,
} from "./storage/events";
import { IDENTITY_FIELDS, LIMIT_FIELDS, type StorageEventInputs, type StorageEventOutputs } from "./storage/types";
import { checkStorageEventInputs } from "./storage/validation";
import { findInList, isEventNotFoundAnswer, PresenceUnclearError, type Presence } from "./absence";
import { PartialResourceError } from "./partial";
import { reconcileWrite, WriteOutcomeUnknownError } from "./writeAttempts";

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

/**
 * Prefix of the provisional id of an event whose create may have landed but whose uuid is not
 * known yet; the rest names its identity. Lifecycles resolve such a resource by identity.
 */
export const PENDING_ID_PREFIX = "pending-create:";

/** True for a provisional id (see {@link PENDING_ID_PREFIX}). */
export function isPendingId(id: string): boolean {
  return id.startsWith(PENDING_ID_PREFIX);
}

function identityKey(e: StorageEventInputs): string {
  return JSON.stringify([e.name, e.storageName ?? "", e.bucketName ?? "", e.clientId ?? null]);
}

/** The uuid of a stored event: the outputs' uuid, else the resource id; undefined while pending. */
function uuidOf(id: string, outs: Partial<StorageEventOutputs>): string | undefined {
  if (outs.uuid) return outs.uuid;
  return id && !isPendingId(id) ? id : undefined;
}

/**
 * An event the list identifies: it carries the uuid and name the lookups rely on. A list with an
 * item that does not can prove no absence (the event sought could be that item), so reads,
 * probes and deletes find it unclear.
 */
function isIdentified(e: NotificationEvent): boolean {
  return Boolean(e.uuid) && isNamed(e);
}

/** An event the list names: its kind (always there, from the key it is listed under). */
function isNamed(e: NotificationEvent): boolean {
  return typeof e.name === "string" && e.name !== "";
}

/** The event with `uuid`, as far as a well-formed list shows it. */
function locateByUuid(list: () => Promise<readonly NotificationEvent[]>, uuid: string): Promise<Presence<NotificationEvent>> {
  return findInList(list, isIdentified, (e) => e.uuid === uuid, EVENT_LIST_CALL);
}

/** The event with the identity of `wanted`, as far as a well-formed list of identified events shows it. */
function locateByIdentity(list: () => Promise<readonly NotificationEvent[]>, wanted: StorageEventInputs): Promise<Presence<NotificationEvent>> {
  return findInList(list, isIdentified, (e) => sameIdentity(e, wanted), EVENT_LIST_CALL);
}

/**
 * An event the list describes well enough to tell its identity without a uuid: named, and with
 * its storage, bucket or limit. An item with none of them (every field `null`) could be anything.
 */
function isDescribed(e: NotificationEvent): boolean {
  return isNamed(e) && (Boolean(e.uuid) || Boolean(e.storageName) || Boolean(e.bucketName) || e.bytes !== null || e.count !== null);
}

/**
 * Whether the identity of `wanted` is taken, for the check a create makes before its first send
 * and for the message of a 409: an event without a uuid counts here (the identity is taken,
 * whoever holds it), though it cannot be anyone's by uuid.
 */
function locateIdentityTaken(list: () => Promise<readonly NotificationEvent[]>, wanted: StorageEventInputs): Promise<Presence<NotificationEvent>> {
  return findInList(list, isDescribed, (e) => sameIdentity(e, wanted), EVENT_LIST_CALL);
}

/** The event a stored resource owns: by uuid, or by identity while its create is pending. */
function locateOwn(list: () => Promise<readonly NotificationEvent[]>, id: string, outs: StorageEventOutputs): Promise<Presence<NotificationEvent>> {
  const uuid = uuidOf(id, outs);
  return uuid ? locateByUuid(list, uuid) : locateByIdentity(list, compactInputs(outs));
}

/** `reaching_used_space for storage "media", no bucket (uuid U)`, or `(uuid not known yet)` while pending. */
function describeOwn(id: string, outs: StorageEventOutputs): string {
  return `storage event ${describeEvent(compactInputs(outs))} (uuid ${uuidOf(id, outs) ?? "not known yet: its create may have landed"})`;
}

/**
 * Create: with `adoptUuid`, take over that event (verified to have the declared identity; its
 * limit set to the declared one) without any POST. Otherwise fail before any write when this
 * run already creates the same identity or the list shows an event with it, and else POST.
 */
async function create(ctx: LifecycleContext, inputs: StorageEventInputs): Promise<{ id: string; outs: StorageEventOutputs }> {
  const wanted = compactInputs(inputs);
  if (wanted.adoptUuid) return adopt(ctx, wanted, wanted.adoptUuid);
  return claimAndCreate(ctx, wanted);
}

/** Creates `wanted` unless this run already creates its identity (see RunState.claimedEvents). */
async function claimAndCreate(ctx: LifecycleContext, wanted: StorageEventInputs): Promise<{ id: string; outs: StorageEventOutputs }> {
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

/** The provisional id and outputs of a create that may have landed with its uuid unknown. */
function pendingCreate(wanted: StorageEventInputs, message: string, reasons: string[], cause?: unknown): PartialResourceError {
  return new PartialResourceError(
    `${message} The stack records the event as pending (id ${PENDING_ID_PREFIX}...); the next \`pulumi up\`, \`refresh\` or \`destroy\` ` +
      "finds it by its name, storage, bucket and client and manages it (or creates it, if the list then proves it never landed); no manual step is needed.",
    PENDING_ID_PREFIX + identityKey(wanted),
    toOutputs(wanted, ""),
    reasons,
    cause,
  );
}

async function createNew(ctx: LifecycleContext, wanted: StorageEventInputs): Promise<{ id: string; outs: StorageEventOutputs }> {
  const api = notifications(ctx);
  const lists = ctx.run.eventLists;
  const listNow = (): Promise<NotificationEvent[]> => lists.get("fresh", () => api.list());
  const before = await locateIdentityTaken(() => lists.get("create-check", () => api.list()), wanted);
  if (before.state === "unclear") {
    throw new PresenceUnclearError(`an event ${describeEvent(wanted)}`, "nothing was created: a create checks the event list before it sends anything", before.reason);
  }
  if (before.state === "present") throw new StorageEventConflictError(wanted, before.value, "exists");

  let resent = false;
  let created: NotificationEvent;
  try {
    created = await reconcileWrite<NotificationEvent>(
      {
        what: `the create of ${describeEvent(wanted)}`,
        send: (attempt, options) => {
          resent = attempt > 1;
          return lists.written("create", api.create(toEventBody(wanted), { clientId: wanted.clientId }, options));
        },
        probe: async () => {
          const found = await locateByIdentity(listNow, wanted);
          if (found.state === "unclear") return { outcome: "unclear", reason: found.reason };
          if (found.state === "absent") return { outcome: "absent" };
          if (!sameLimit(found.value, wanted)) return { outcome: "conflict", error: new StorageEventConflictError(wanted, found.value, "exists") };
          return { outcome: "applied", value: found.value };
        },
        log: (line) => ctx.log(line),
        signal: ctx.signal,
      },
      ctx.run.writeTiming,
    );
  } catch (err) {
    if (err instanceof WriteOutcomeUnknownError) throw pendingCreate(wanted, err.message, [err.message], err);
    if (!isConflict(err)) throw err;
    // The 409 itself is the news; the list only adds the uuid to the message.
    const listed = await locateIdentityTaken(listNow, wanted);
    const existing = listed.state === "present" ? listed.value : undefined;
    if (resent && listed.state === "unclear") {
      // Our first send may be the event that answered 409; without a list to tell, the stack
      // must keep it as pending rather than forget it.
      throw pendingCreate(wanted, `A re-sent create of ${describeEvent(wanted)} was refused (409), and the event list that would tell whether it is our first send could not be read (${listed.reason}).`, [listed.reason], err);
    }
    if (resent && existing?.uuid && sameLimit(existing, wanted)) {
      // The list proved the identity free before our first send, which then failed without an
      // answer; an event with exactly our identity and limit is that send landing late.
      ctx.log(`${describeEvent(wanted)}: the first create landed after all (the re-sent one met it: 409); recording event ${existing.uuid} as this resource's`);
      return { id: existing.uuid, outs: toOutputs(wanted, existing.uuid) };
    }
    throw new StorageEventConflictError(wanted, existing, resent ? "after-resend" : "exists", err);
  }
  // The server may not echo a uuid (the spec does not say): look it up, so update and delete can address the event.
  if (created.uuid) return { id: created.uuid, outs: toOutputs(wanted, created.uuid) };
  const found = await locateByIdentity(listNow, wanted);
  if (found.state === "present" && found.value.uuid) return { id: found.value.uuid, outs: toOutputs(wanted, found.value.uuid) };
  const seen = found.state === "unclear" ? found.reason : "the event list does not show it yet";
  throw pendingCreate(wanted, `POST ${EVENT_ENDPOINT} created ${describeEvent(wanted)} but its answer has no uuid and the list could not show it (${seen}).`, [seen]);
}

/**
 * Takes over the event `uuid` (the user said so with `adoptUuid`): it must exist with the
 * declared identity. Its limit becomes the declared one (a PUT only when it differs). The uuid is
 * recorded in the run, so the delete of a resource that held it before (a rename) leaves it.
 */
async function adopt(ctx: LifecycleContext, wanted: StorageEventInputs, uuid: string): Promise<{ id: string; outs: StorageEventOutputs }> {
  const api = notifications(ctx);
  const found = await locateByUuid(() => ctx.run.eventLists.get("fresh", () => api.list()), uuid);
  if (found.state === "unclear") throw new PresenceUnclearError(`storage event ${uuid}`, "nothing was adopted or changed", found.reason);
  const existing = found.state === "present" ? found.value : undefined;
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

/**
 * Read: the event this resource owns (by uuid; by identity while its create is pending). Gone
 * only when a well-formed list lacks it; a failed or malformed list is an error that leaves the
 * resource in the stack as recorded.
 */
async function read(ctx: LifecycleContext, id: string, outs: StorageEventOutputs): Promise<ReadResult<StorageEventInputs, StorageEventOutputs> | undefined> {
  const found = await locateOwn(() => ctx.run.eventLists.get("read", () => notifications(ctx).list()), id, outs);
  if (found.state === "unclear") throw new PresenceUnclearError(describeOwn(id, outs), "the resource stays in the stack as recorded", found.reason);
  if (found.state === "absent") return undefined;
  const uuid = String(found.value.uuid);
  const inputs = liveInputs(found.value, outs);
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
        send: (_attempt, options) => lists.written("update", api.update(toEventBody(wanted, uuid), { clientId: wanted.clientId }, options)),
        probe: async () => {
          const found = await locateByUuid(() => lists.get("fresh", () => api.list()), uuid);
          if (found.state === "unclear") return { outcome: "unclear", reason: found.reason };
          if (found.state === "absent") return { outcome: "unclear", reason: "the event is no longer listed" };
          return sameLimit(found.value, wanted) ? { outcome: "applied", value: undefined } : { outcome: "absent" };
        },
        log: (line) => ctx.log(line),
        signal: ctx.signal,
      },
      ctx.run.writeTiming,
    );
  } catch (err) {
    if (!isEventNotFoundAnswer(err)) throw err;
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
  if (found.state === "unclear") throw new PresenceUnclearError(describeOwn(id, olds), "nothing was written; the resource stays in the stack as pending", found.reason);
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
    if (found.state === "unclear") throw new PresenceUnclearError(describeOwn(id, outs), "nothing was deleted; the resource stays in the stack", found.reason);
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
async function diff(_id: string, olds: StorageEventOutputs, news: StorageEventInputs): Promise<DiffResult> {
  const o = olds as unknown as Record<string, unknown>;
  const n = news as unknown as Record<string, unknown>;
  const replaces = IDENTITY_FIELDS.filter((f) => !sameValue(o[f], n[f]));
  const updates = LIMIT_FIELDS.filter((f) => !sameValue(o[f], n[f]));
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
 * The StorageEvent lifecycle, registered as `StorageEvent` for both adapters in
 * `provider/adapters/resourceTypes.ts`.
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
