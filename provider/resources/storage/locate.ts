/**
 * Finding a StorageEvent's event in the event list: by uuid, by identity, or (while its create
 * is pending, see {@link PENDING_ID_PREFIX}) by the identity its provisional id names.
 *
 * Why here: the API has no read-by-uuid, so every read, probe and pre-check of the lifecycle
 * (`storageEvent.ts`) is a lookup in a list; which items count as identified, and so which
 * lists can prove an event absent (`absence.ts`), is decided in this one place.
 */
import { answeredWithoutKinds, type CloudPlatformClient, type NotificationEvent, type NotificationsApi } from "../../api";
import { findInList, type Presence } from "../absence";
import type { LifecycleContext } from "../lifecycle";
import { compactInputs, describeEvent, EVENT_LIST_CALL, sameIdentity } from "./events";
import type { StorageEventInputs, StorageEventOutputs } from "./types";

/** The notification endpoints of the client the lifecycle context gives. */
export function notifications(ctx: LifecycleContext): NotificationsApi {
  const client: CloudPlatformClient = ctx.client();
  return client.storage.notifications;
}

/**
 * Prefix of the provisional id of an event whose create may have landed but whose uuid is not
 * known yet; the rest names its identity. Lifecycles resolve such a resource by identity.
 */
export const PENDING_ID_PREFIX = "pending-create:";

function isPendingId(id: string): boolean {
  return id.startsWith(PENDING_ID_PREFIX);
}

/** The identity of an event as one string: the key of claimed identities and of provisional ids. */
export function identityKey(e: StorageEventInputs): string {
  return JSON.stringify([e.name, e.storageName ?? "", e.bucketName ?? "", e.clientId ?? null]);
}

/** The uuid of a stored event: the outputs' uuid, else the resource id; undefined while pending. */
export function uuidOf(id: string, outs: Partial<StorageEventOutputs>): string | undefined {
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

/**
 * Why a list answered `{}` proves no event absent: the OpenAPI's `EventsResponse` requires no
 * kind, so an account without events may answer so, and so may a gateway in front of one with
 * events. Reads, probes and deletes need a list that shows its kinds.
 */
export function withoutKindsProblem(items: readonly NotificationEvent[]): string | undefined {
  return answeredWithoutKinds(items)
    ? `the answer of ${EVENT_LIST_CALL} was {} (no event kind at all): an account without events may answer so, and so may a gateway in front of one with events, so it proves no event absent`
    : undefined;
}

/** The event with `uuid`, as far as a well-formed list shows it. */
export function locateByUuid(list: () => Promise<readonly NotificationEvent[]>, uuid: string): Promise<Presence<NotificationEvent>> {
  return findInList(list, isIdentified, (e) => e.uuid === uuid, EVENT_LIST_CALL, withoutKindsProblem);
}

/** The event with the identity of `wanted`, as far as a well-formed list of identified events shows it. */
export function locateByIdentity(list: () => Promise<readonly NotificationEvent[]>, wanted: StorageEventInputs): Promise<Presence<NotificationEvent>> {
  return findInList(list, isIdentified, (e) => sameIdentity(e, wanted), EVENT_LIST_CALL, withoutKindsProblem);
}

/**
 * An event the list describes well enough to tell its identity without a uuid: named, and with
 * its storage, bucket or limit. An item with none of them (every field `null`) could be anything.
 */
export function isDescribed(e: NotificationEvent): boolean {
  return isNamed(e) && (Boolean(e.uuid) || Boolean(e.storageName) || Boolean(e.bucketName) || e.bytes !== null || e.count !== null);
}

/**
 * Whether the identity of `wanted` is taken, for the check a create makes before its first send
 * and for the message of a 409: an event without a uuid counts here (the identity is taken,
 * whoever holds it), though it cannot be anyone's by uuid. A list answered `{}` reads as "free"
 * only with `beforeFirstSend` (the create then confirms its event was the only one of the
 * identity, `firstEvent.ts`); for the 409's message it is unclear.
 */
export function locateIdentityTaken(
  list: () => Promise<readonly NotificationEvent[]>,
  wanted: StorageEventInputs,
  beforeFirstSend = false,
): Promise<Presence<NotificationEvent>> {
  return findInList(list, isDescribed, (e) => sameIdentity(e, wanted), EVENT_LIST_CALL, beforeFirstSend ? undefined : withoutKindsProblem);
}

/** The event a stored resource owns: by uuid, or by identity while its create is pending. */
export function locateOwn(list: () => Promise<readonly NotificationEvent[]>, id: string, outs: StorageEventOutputs): Promise<Presence<NotificationEvent>> {
  const uuid = uuidOf(id, outs);
  return uuid ? locateByUuid(list, uuid) : locateByIdentity(list, compactInputs(outs));
}

/** `reaching_used_space for storage "media", no bucket (uuid U)`, or `(uuid not known yet)` while pending. */
export function describeOwn(id: string, outs: StorageEventOutputs): string {
  return `storage event ${describeEvent(compactInputs(outs))} (uuid ${uuidOf(id, outs) ?? "not known yet: its create may have landed"})`;
}
