/**
 * Helpers of the StorageEvent lifecycle: identity matching, the request body, the stored
 * shape, and the classification of failures (conflict, ambiguous, already gone).
 *
 * Why separate: these rules decide whether a write is repeated, adopted or reported, so they
 * are small pure functions that the unit tests can reason about one by one.
 */
import {
  CloudPlatformError,
  ConflictError,
  NotFoundError,
  ValidationError,
  type NotificationEvent,
  type NotificationEventInput,
  type NotificationEventName,
} from "../../api";
import type { StorageEventInputs, StorageEventOutputs } from "./types";

/** Path of the single-event endpoint, for messages. */
export const EVENT_ENDPOINT = "/storage/notifications/v1/event";

/** Treats absent, null and "" alike, as the server does for storage and bucket. */
function norm(v: string | null | undefined): string {
  return v ?? "";
}

/**
 * True when a listed event has the identity of `want`: same name, storage, bucket and client.
 * The server allows one event per identity (a second create is 409).
 */
export function sameIdentity(ev: NotificationEvent, want: StorageEventInputs): boolean {
  return (
    ev.name === want.name &&
    norm(ev.storageName) === norm(want.storageName) &&
    norm(ev.bucketName) === norm(want.bucketName) &&
    (ev.clientId ?? undefined) === (want.clientId ?? undefined)
  );
}

/** True when a listed event carries exactly the limits of `want`. */
export function sameLimit(ev: NotificationEvent, want: StorageEventInputs): boolean {
  return (ev.bytes ?? undefined) === (want.bytes ?? undefined) && (ev.count ?? undefined) === (want.count ?? undefined);
}

/** The body of a write: the declared fields, plus the uuid for update and delete. */
export function toEventBody(inputs: StorageEventInputs, uuid?: string): NotificationEventInput {
  return {
    name: inputs.name,
    storageName: inputs.storageName,
    bucketName: inputs.bucketName,
    bytes: inputs.bytes,
    count: inputs.count,
    uuid: uuid || undefined,
  };
}

/** The inputs without unset fields (Pulumi state keeps no `undefined`; refresh compares shapes). */
export function compactInputs(inputs: StorageEventInputs): StorageEventInputs {
  const out: Record<string, unknown> = { name: inputs.name };
  if (inputs.storageName !== undefined) out["storageName"] = inputs.storageName;
  if (inputs.bucketName !== undefined) out["bucketName"] = inputs.bucketName;
  if (inputs.bytes !== undefined) out["bytes"] = inputs.bytes;
  if (inputs.count !== undefined) out["count"] = inputs.count;
  if (inputs.clientId !== undefined) out["clientId"] = inputs.clientId;
  return out as unknown as StorageEventInputs;
}

/** The stored outputs: the inputs plus the uuid, with the same shape from create, update, read. */
export function toOutputs(inputs: StorageEventInputs, uuid: string): StorageEventOutputs {
  return { ...compactInputs(inputs), uuid };
}

/** The inputs as the server shows them now (client id kept from the state: the list may omit it). */
export function liveInputs(ev: NotificationEvent, clientId: number | undefined): StorageEventInputs {
  return compactInputs({
    name: ev.name as NotificationEventName,
    storageName: ev.storageName ?? undefined,
    bucketName: ev.bucketName ?? undefined,
    bytes: ev.bytes ?? undefined,
    count: ev.count ?? undefined,
    clientId: ev.clientId ?? clientId,
  });
}

/** `reaching_used_space for storage "media", bucket "photos" (client 42)`. */
export function describeEvent(e: { name: string; storageName?: string | null | undefined; bucketName?: string | null | undefined; clientId?: number | null | undefined }): string {
  const parts = [e.name];
  parts.push(e.storageName ? `for storage ${JSON.stringify(e.storageName)}` : "for no storage");
  parts.push(e.bucketName ? `bucket ${JSON.stringify(e.bucketName)}` : "no bucket");
  let text = `${parts[0]} ${parts[1]}, ${parts[2]}`;
  if (e.clientId !== undefined && e.clientId !== null) text += ` (client ${e.clientId})`;
  return text;
}

function describeLimit(e: { bytes?: number | null | undefined; count?: number | null | undefined }): string {
  if (e.bytes !== undefined && e.bytes !== null) return `bytes ${e.bytes}`;
  if (e.count !== undefined && e.count !== null) return `count ${e.count}`;
  return "no limit";
}

/**
 * Create found the event already there (409, or an ambiguous create that turned out to meet an
 * event with another limit). The message names the existing event and the ways out, because
 * the user must decide: adopt it (delete and let `pulumi up` recreate it) or leave it alone.
 */
export class StorageEventConflictError extends CloudPlatformError {
  /** The event that already exists, when the list showed it. */
  readonly existing: NotificationEvent | undefined;
  /** What this resource tried to create. */
  readonly wanted: StorageEventInputs;

  constructor(wanted: StorageEventInputs, existing: NotificationEvent | undefined, cause: Error) {
    const known = existing ? ` (uuid ${existing.uuid ?? "not shown"}, ${describeLimit(existing)})` : "";
    const deleteHow = existing?.uuid
      ? `the portal, or DELETE ${EVENT_ENDPOINT} with body {"uuid": ${JSON.stringify(existing.uuid)}}`
      : `the portal, or DELETE ${EVENT_ENDPOINT} with its name, storage_name and bucket_name`;
    super(
      `Cannot create storage event ${describeEvent(wanted)}: it already exists${known}. ` +
        "The API allows one event per name, storage, bucket and client, and this one is not managed by this resource. " +
        `To adopt it, delete it outside Pulumi (${deleteHow}) and run \`pulumi up\` again: it is recreated with the limit declared here. ` +
        "To leave it alone, remove this StorageEvent from the program or change its name, storageName or bucketName; " +
        "if two resources declare the same event, keep only one. " +
        `(${cause.message})`,
    );
    this.existing = existing;
    this.wanted = wanted;
  }
}

/** True when a 409 answered the write. */
export function isConflict(err: unknown): err is ConflictError {
  return err instanceof ConflictError;
}

/**
 * True when the server says the addressed event does not exist: 404, or the 400
 * `{error: "event not found"}` the notification endpoints answer (they document no 404).
 */
export function isEventGone(err: unknown): boolean {
  if (err instanceof NotFoundError) return true;
  return err instanceof ValidationError && /\bnot found\b/i.test(err.serverMessage);
}
