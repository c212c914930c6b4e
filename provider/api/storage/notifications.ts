/**
 * Object storage notification thresholds ("events"): create, list, update, delete.
 *
 * Why: the `StorageEvent` resource's whole lifecycle. There is no read-by-uuid; the list is the
 * read path. Update and delete address the event by its body (the API's design), and answer 204.
 */
import type { RequestOptions, Transport } from "../transport";
import { z } from "zod";
import { isRecord, optionalCount, optionalInt, optionalList, optionalText, text, withAnyOf, type Answer } from "../schema";

/** The four kinds of threshold. */
export type NotificationEventName = "reaching_used_space" | "reaching_files_quantity" | "reaching_used_traffic" | "reaching_used_requests";

/** Every allowed event name, in the API's order. */
export const NOTIFICATION_EVENT_NAMES: readonly NotificationEventName[] = [
  "reaching_used_space",
  "reaching_files_quantity",
  "reaching_used_traffic",
  "reaching_used_requests",
];

/** Which limit field goes with which name: bytes for space and traffic, count for files and requests. */
export const LIMIT_KIND_BY_EVENT: Readonly<Record<NotificationEventName, "bytes" | "count">> = {
  reaching_used_space: "bytes",
  reaching_used_traffic: "bytes",
  reaching_files_quantity: "count",
  reaching_used_requests: "count",
};

/** A threshold as sent to the API; null and undefined fields are left out (so a read event can be sent back). */
export interface NotificationEventInput {
  /** Kind of notification (the server decides what it accepts). */
  readonly name: NotificationEventName | string;
  readonly storageName?: string | null | undefined;
  readonly bucketName?: string | null | undefined;
  /** Limit in bytes (with reaching_used_space / reaching_used_traffic). */
  readonly bytes?: number | null | undefined;
  /** Limit as a count (with reaching_files_quantity / reaching_used_requests). */
  readonly count?: number | null | undefined;
  /** Identifier of an existing event (update, delete). */
  readonly uuid?: string | null | undefined;
}

/** The `client_id` query parameter of the write calls. */
export interface NotificationWriteParams {
  /** Act on behalf of this client (resellers); omitted when undefined. */
  readonly clientId?: number | undefined;
}

/** Map the TypeScript event to the wire body, leaving out what is not set. */
export function eventToWire(e: NotificationEventInput): Record<string, unknown> {
  const out: Record<string, unknown> = { name: e.name };
  if (e.bucketName !== undefined && e.bucketName !== null) out["bucket_name"] = e.bucketName;
  if (e.storageName !== undefined && e.storageName !== null) out["storage_name"] = e.storageName;
  if (e.bytes !== undefined && e.bytes !== null) out["bytes"] = e.bytes;
  if (e.count !== undefined && e.count !== null) out["count"] = e.count;
  if (e.uuid !== undefined && e.uuid !== null) out["uuid"] = e.uuid;
  return out;
}

/** The fields every event answer shares, all open; `name` is checked where it is required. */
const eventFields = {
  storage_name: optionalText,
  bucket_name: optionalText,
  // The spec's uint64: any whole number, absent or `null` when the event has the other kind.
  bytes: optionalCount,
  count: optionalCount,
  client_id: optionalInt,
};

/** An event as the API writes it (snake_case), once one of the schemas below has checked it. */
const wireEventFields = z.object(eventFields);
type WireEvent = z.output<typeof wireEventFields>;

/** The client's shape of an event; `name` is passed in because a listed item takes it from its key. */
function eventFromWire(w: WireEvent & { readonly uuid: string | null }, name: string) {
  return {
    name,
    storageName: w.storage_name,
    bucketName: w.bucket_name,
    bytes: w.bytes,
    count: w.count,
    uuid: w.uuid,
    /**
     * The client the event was created for (`client_id`), when the server shows it. The public
     * list shows none: null then means "not known", never "no client".
     */
    clientId: w.client_id,
  };
}

/**
 * The answer to a create: an Event with its `name` (required by the spec). The spec does not say
 * whether the server echoes the `uuid`; when it does not, the lifecycle looks it up in the list.
 */
export const createdEventSchema = z
  .object({ name: text, uuid: optionalText, ...eventFields })
  .transform((w) => eventFromWire(w, w.name));

/** A threshold as a create answers it: the `uuid` is null when the server does not echo it. */
export interface CreatedNotificationEvent extends Answer<typeof createdEventSchema> {}

/**
 * One item of the list: every field is open (the OpenAPI requires none). An item without a
 * `uuid` cannot be a resource's own event (resources find theirs by uuid), but it still counts
 * when a create checks whether the identity is taken. A present field must have its type: a
 * malformed item is a malformed list, never a missing event. An item's kind is the key it is
 * listed under; a `name` inside it (not in the OpenAPI) is ignored like any unknown field.
 */
const listedEventSchema = z.object({ uuid: optionalText, ...eventFields });

/** A kind of the list: its events, or `null` / absent for none (a Go server's empty slice). */
const eventGroup = optionalList(listedEventSchema);

/** The list keyed by the kinds: at least one of the four keys, each an array of events or `null`. */
const eventListWithKinds = withAnyOf(
  NOTIFICATION_EVENT_NAMES,
  "the event kinds as keys",
  z.object({
    reaching_used_space: eventGroup,
    reaching_files_quantity: eventGroup,
    reaching_used_traffic: eventGroup,
    reaching_used_requests: eventGroup,
  }),
).transform((byName) => NOTIFICATION_EVENT_NAMES.flatMap((key) => (byName[key] ?? []).map((w) => eventFromWire(w, key))));

/** Marks a list read from `{}` (see {@link answeredWithoutKinds}). */
const WITHOUT_KINDS = Symbol("the event list was answered as {}");

/**
 * Whether an event list came as `{}`: no kind at all. Why it is kept apart from a list whose
 * kinds are all empty or `null`: the OpenAPI's `EventsResponse` requires none of the four kinds,
 * so an account without events may answer `{}`, but so may a gateway or a broken server in front
 * of an account full of them. A decision that an event is absent (refresh, the read-back of a
 * write, delete) needs a list that shows its kinds; only the check a create makes before it
 * sends may read `{}` as "no events", since the create confirms its event was the only one of
 * its identity afterwards (`provider/resources/storage/firstEvent.ts`).
 */
export function answeredWithoutKinds(list: readonly unknown[]): boolean {
  return (list as { [WITHOUT_KINDS]?: boolean })[WITHOUT_KINDS] === true;
}

/** No events, marked as read from `{}`. */
function listWithoutKinds<T>(): T[] {
  return Object.defineProperty([] as T[], WITHOUT_KINDS, { value: true, enumerable: false });
}

/**
 * The list answer: an object keyed by the four event names, each an array of events (the name
 * of an item is the key it is under); a kind without events may come as `null` or be left out.
 * `{}` (no key at all) reads as no events, marked ({@link answeredWithoutKinds}). Any other body
 * without one of the four keys (a wrong shape, an error object) is refused: it never reads as
 * "there are no events", since that could drop every StorageEvent from the stack. Keys the API
 * may add later are ignored.
 */
export const eventListSchema = z.unknown().transform((body, ctx): z.output<typeof eventListWithKinds> => {
  if (isRecord(body) && Object.keys(body).length === 0) return listWithoutKinds();
  const parsed = eventListWithKinds.safeParse(body);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: [...issue.path] });
  return z.NEVER;
});

/** A threshold as the list shows it: the `uuid` is null when the server left it out. */
export interface ListedNotificationEvent extends Readonly<z.output<typeof eventListSchema>[number]> {}

/** A threshold as read back: created (the `uuid` may be null) or listed. */
export type NotificationEvent = CreatedNotificationEvent | ListedNotificationEvent;

/** The notification functions of the client. */
export interface NotificationsApi {
  /** Create a threshold; 409 ConflictError when it already exists. */
  create(event: NotificationEventInput, params?: NotificationWriteParams, options?: RequestOptions): Promise<NotificationEvent>;
  /** Every threshold of the caller, flattened. */
  list(options?: RequestOptions): Promise<NotificationEvent[]>;
  /** Change a threshold (204). */
  update(event: NotificationEventInput, params?: NotificationWriteParams, options?: RequestOptions): Promise<void>;
  /** Delete a threshold (204); the event goes in the DELETE body. */
  delete(event: NotificationEventInput, params?: NotificationWriteParams, options?: RequestOptions): Promise<void>;
}

/** The single-event endpoint (create, update and delete a threshold). */
export const EVENT_PATH = "/storage/notifications/v1/event";
/** The event list endpoint. */
export const EVENT_LIST_PATH = "/storage/notifications/v1/events";

/** Bind the notification functions to a transport. */
export function notificationsApi(t: Transport): NotificationsApi {
  return {
    async create(event, params = {}, options) {
      const res = await t.request({
        method: "POST",
        path: EVENT_PATH,
        query: { client_id: params.clientId },
        body: eventToWire(event),
        options,
        response: createdEventSchema,
      });
      return res.data;
    },
    async list(options) {
      const res = await t.request({ method: "GET", path: EVENT_LIST_PATH, options, response: eventListSchema });
      return res.data;
    },
    async update(event, params = {}, options) {
      await t.request({ method: "PUT", path: EVENT_PATH, query: { client_id: params.clientId }, body: eventToWire(event), options, response: null });
    },
    async delete(event, params = {}, options) {
      await t.request({ method: "DELETE", path: EVENT_PATH, query: { client_id: params.clientId }, body: eventToWire(event), options, response: null });
    },
  };
}

/** `client.storage`. */
export interface StorageApi {
  readonly notifications: NotificationsApi;
}

/** Bind the storage group to a transport. */
export function storageApi(t: Transport): StorageApi {
  return Object.freeze({ notifications: notificationsApi(t) });
}
