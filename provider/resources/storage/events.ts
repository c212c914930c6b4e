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
  type NotificationEvent,
  type NotificationEventInput,
  type NotificationEventName,
} from "../../api";
import { EVENT_LIST_PATH, EVENT_PATH } from "../../api/storage/notifications";
import { withRefusalCode } from "../refusals";
import type { StorageEventInputs, StorageEventOutputs } from "./types";

/** Path of the single-event endpoint, for messages. */
export const EVENT_ENDPOINT = EVENT_PATH;

/** The list read, for messages about its answer. */
export const EVENT_LIST_CALL = `GET ${EVENT_LIST_PATH}`;

/** Treats absent, null and "" alike, as the server does for storage and bucket. */
function norm(v: string | null | undefined): string {
  return v ?? "";
}

/**
 * True when a listed event may have the identity of `wanted`: same name, storage and bucket, and
 * the same client where the list shows one. The server allows one event per identity (a second
 * create is 409). The public list shows no `client_id` (and takes no client parameter), so an
 * event without one matches any client: it cannot be told apart, and a create, the probe of a
 * lost create and an adoption must not pass it by as someone else's.
 */
export function sameIdentity(ev: NotificationEvent, wanted: StorageEventInputs): boolean {
  return (
    ev.name === wanted.name &&
    norm(ev.storageName) === norm(wanted.storageName) &&
    norm(ev.bucketName) === norm(wanted.bucketName) &&
    (ev.clientId === null || ev.clientId === (wanted.clientId ?? undefined))
  );
}

/** True when a listed event carries exactly the limits of `wanted`. */
export function sameLimit(ev: { bytes?: number | null | undefined; count?: number | null | undefined }, wanted: StorageEventInputs): boolean {
  return (ev.bytes ?? undefined) === (wanted.bytes ?? undefined) && (ev.count ?? undefined) === (wanted.count ?? undefined);
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
  if (inputs.adoptUuid !== undefined) out["adoptUuid"] = inputs.adoptUuid;
  return out as unknown as StorageEventInputs;
}

/** The stored outputs: the inputs plus the uuid, with the same shape from create, update, read. */
export function toOutputs(inputs: StorageEventInputs, uuid: string): StorageEventOutputs {
  return { ...compactInputs(inputs), uuid };
}

/**
 * The inputs as the server shows them now. The client id and `adoptUuid` come from the state:
 * the list may omit the first and never knows the second.
 */
export function liveInputs(ev: NotificationEvent, stored: Pick<StorageEventInputs, "clientId" | "adoptUuid">): StorageEventInputs {
  return compactInputs({
    name: ev.name as NotificationEventName,
    storageName: ev.storageName ?? undefined,
    bucketName: ev.bucketName ?? undefined,
    bytes: ev.bytes ?? undefined,
    count: ev.count ?? undefined,
    clientId: ev.clientId ?? stored.clientId,
    adoptUuid: stored.adoptUuid,
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

/** Why create found an event with the declared identity in its way. */
export type ConflictCause =
  /** The platform lists it (made outside Pulumi, by another stack, or by an interrupted run). */
  | "exists"
  /** Another resource of this same program declares it. */
  | "declared-twice"
  /** The create met it after an earlier attempt of ours failed without an answer. */
  | "after-resend";

/**
 * Create found an event with the declared identity that this resource does not own. Nothing was
 * created and nothing was taken over: the message names the existing event and the explicit
 * ways out, because only the user can say whose event it is.
 */
export class StorageEventConflictError extends CloudPlatformError {
  /** The event that already exists, when the list showed it. */
  readonly existing: NotificationEvent | undefined;
  /** What this resource tried to create. */
  readonly wanted: StorageEventInputs;

  constructor(wanted: StorageEventInputs, existing: NotificationEvent | undefined, cause: ConflictCause, serverError?: Error) {
    const message = conflictMessage(wanted, existing, cause) + (serverError ? ` (${serverError.message})` : "");
    // Two declarations of one event are the program's own mistake, not a refusal to converge.
    super(cause === "declared-twice" ? message : withRefusalCode("CLOUDPLATFORM_EVENT_NOT_OWNED", message));
    this.existing = existing;
    this.wanted = wanted;
  }
}

function conflictMessage(wanted: StorageEventInputs, existing: NotificationEvent | undefined, cause: ConflictCause): string {
  const head = `Cannot create storage event ${describeEvent(wanted)}`;
  if (cause === "declared-twice") {
    return (
      `${head}: another StorageEvent of this program declares the same event. ` +
      "The API allows one event per name, storage, bucket and client: keep only one of the two declarations."
    );
  }
  const uuid = existing?.uuid;
  const known = existing ? ` (uuid ${uuid ?? "not shown"}, ${describeLimit(existing)})` : "";
  const adopt = uuid
    ? `To take it over, set \`adoptUuid: ${JSON.stringify(uuid)}\` on this StorageEvent ` +
      `(with the cloudplatform plugin: \`pulumi import cloudplatform:index:StorageEvent <resource name> ${uuid}\`) and run \`pulumi up\` again; no second event is created. `
    : "To take it over, find its uuid in the event list (GET /storage/notifications/v1/events) and set `adoptUuid` to it. ";
  const resent =
    cause === "after-resend"
      ? "An earlier attempt of this create failed without an answer and may have created it; if so, adopting it is right. "
      : "";
  return (
    `${head}: an event with this identity already exists${known} and this resource does not own it; nothing was created or changed. ` +
    resent +
    "The API allows one event per name, storage, bucket and client. " +
    adopt +
    'If you renamed this resource, keep its old name as an alias instead (`aliases: [{ name: "<old name>" }]`). ' +
    "If another stack or program manages it, leave it there and remove or change this declaration."
  );
}

/** `adoptUuid` names an event that is missing or has another identity: nothing was adopted. */
export class StorageEventAdoptionError extends CloudPlatformError {
  constructor(wanted: StorageEventInputs, existing: NotificationEvent | undefined) {
    const uuid = wanted.adoptUuid ?? "";
    super(
      withRefusalCode(
        "CLOUDPLATFORM_ADOPTION_MISMATCH",
        existing
          ? `Cannot adopt storage event ${uuid}: it is ${describeEvent(eventIdentity(existing))}, but this resource declares ${describeEvent(wanted)}. ` +
              "adoptUuid must name the event this resource declares (it is read only when the resource is created): correct it, or remove it to create a new event."
          : `Cannot adopt storage event ${uuid}: the event list has no event with that uuid. ` +
              "Correct adoptUuid (GET /storage/notifications/v1/events lists the uuids), or remove it to create a new event.",
      ),
    );
  }
}

function eventIdentity(ev: NotificationEvent): StorageEventInputs {
  return compactInputs({
    name: ev.name as NotificationEventName,
    storageName: ev.storageName ?? undefined,
    bucketName: ev.bucketName ?? undefined,
    clientId: ev.clientId ?? undefined,
  });
}

/** True when a 409 answered the write. */
export function isConflict(err: unknown): err is ConflictError {
  return err instanceof ConflictError;
}
