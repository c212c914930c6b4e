/**
 * Object storage notification thresholds ("events"), the `StorageEvent` resource's lifecycle.
 * There is no read-by-uuid: the list is the read path; update and delete address the event by its body.
 */
import type { RequestOptions, Transport } from "../transport";
import { z } from "zod";
import { isRecord, optionalCount, optionalInt, optionalList, optionalText, text, withAnyOf, type Answer } from "../schema";

/** The four kinds of threshold. */
export type NotificationEventName = "reaching_used_space" | "reaching_files_quantity" | "reaching_used_traffic" | "reaching_used_requests";

/** In the API's order. */
export const NOTIFICATION_EVENT_NAMES: readonly NotificationEventName[] = [
  "reaching_used_space",
  "reaching_files_quantity",
  "reaching_used_traffic",
  "reaching_used_requests",
];

/** Which limit field goes with which name. */
export const LIMIT_KIND_BY_EVENT: Readonly<Record<NotificationEventName, "bytes" | "count">> = {
  reaching_used_space: "bytes",
  reaching_used_traffic: "bytes",
  reaching_files_quantity: "count",
  reaching_used_requests: "count",
};

/** A threshold as sent to the API; null and undefined fields are left out (so a read event can be sent back). */
export interface NotificationEventInput {
  /** The server decides what it accepts. */
  readonly name: NotificationEventName | string;
  readonly storageName?: string | null | undefined;
  readonly bucketName?: string | null | undefined;
  readonly bytes?: number | null | undefined;
  readonly count?: number | null | undefined;
  /** Of an existing event (update, delete). */
  readonly uuid?: string | null | undefined;
}

/** The `client_id` query parameter of the write calls. */
export interface NotificationWriteParams {
  /** Act on behalf of this client (resellers). */
  readonly clientId?: number | undefined;
}

/** The wire body, leaving out what is not set. */
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
  // Absent or `null` when the event has the other kind.
  bytes: optionalCount,
  count: optionalCount,
  client_id: optionalInt,
};

const wireEventFields = z.object(eventFields);
type WireEvent = z.output<typeof wireEventFields>;

/** `name` is passed in because a listed item takes it from its key. */
function eventFromWire(w: WireEvent & { readonly uuid: string | null }, name: string) {
  return {
    name,
    storageName: w.storage_name,
    bucketName: w.bucket_name,
    bytes: w.bytes,
    count: w.count,
    uuid: w.uuid,
    /** The public list shows none: null means "not known", never "no client". */
    clientId: w.client_id,
  };
}

/** The spec does not say whether a create echoes the `uuid`; if not, the lifecycle looks it up in the list. */
export const createdEventSchema = z
  .object({ name: text, uuid: optionalText, ...eventFields })
  .transform((w) => eventFromWire(w, w.name));

/** The `uuid` is null when the server does not echo it. */
export interface CreatedNotificationEvent extends Answer<typeof createdEventSchema> {}

/**
 * Every field open (the OpenAPI requires none), but a present field must have its type: a
 * malformed item is a malformed list, never a missing event. The kind is the key it is listed under.
 */
const listedEventSchema = z.object({ uuid: optionalText, ...eventFields });

/** `null` or absent for none (a Go server's empty slice). */
const eventGroup = optionalList(listedEventSchema);

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

const WITHOUT_KINDS = Symbol("the event list was answered as {}");

/**
 * Whether an event list came as `{}`. The OpenAPI's `EventsResponse` requires none of the kinds,
 * but so may a broken gateway answer: only a create's pre-check may read `{}` as "no events"
 * (it confirms afterwards, `provider/resources/storage/firstEvent.ts`).
 */
export function answeredWithoutKinds(list: readonly unknown[]): boolean {
  return (list as { [WITHOUT_KINDS]?: boolean })[WITHOUT_KINDS] === true;
}

function listWithoutKinds<T>(): T[] {
  return Object.defineProperty([] as T[], WITHOUT_KINDS, { value: true, enumerable: false });
}

/**
 * Keyed by the four event names; `{}` reads as no events, marked. Any other body without one of
 * the keys is refused: "no events" could drop every StorageEvent from the stack.
 */
export const eventListSchema = z.unknown().transform((body, ctx): z.output<typeof eventListWithKinds> => {
  if (isRecord(body) && Object.keys(body).length === 0) return listWithoutKinds();
  const parsed = eventListWithKinds.safeParse(body);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: [...issue.path] });
  return z.NEVER;
});

/** The `uuid` is null when the server left it out. */
export interface ListedNotificationEvent extends Readonly<z.output<typeof eventListSchema>[number]> {}

/** A threshold as read back: created (the `uuid` may be null) or listed. */
export type NotificationEvent = CreatedNotificationEvent | ListedNotificationEvent;

/** The notification functions of the client. */
export interface NotificationsApi {
  /** Create a threshold; 409 ConflictError when it already exists. */
  create(event: NotificationEventInput, params?: NotificationWriteParams, options?: RequestOptions): Promise<NotificationEvent>;
  list(options?: RequestOptions): Promise<NotificationEvent[]>;
  update(event: NotificationEventInput, params?: NotificationWriteParams, options?: RequestOptions): Promise<void>;
  /** Delete a threshold (204); the event goes in the DELETE body. */
  delete(event: NotificationEventInput, params?: NotificationWriteParams, options?: RequestOptions): Promise<void>;
}

/** Create, update and delete a threshold. */
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
