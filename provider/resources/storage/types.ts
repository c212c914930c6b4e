/** Input and output shapes of the StorageEvent lifecycle, apart so its modules import no circle. */
import type { NotificationEventName } from "../../api";

/**
 * What a user declares: one notification threshold. Exactly the limit field that matches
 * `name` is set (`bytes` for used space/traffic, `count` for files quantity/requests), and at
 * least one of `storageName` / `bucketName` (see `checkStorageEventInputs`).
 */
export interface StorageEventInputs {
  /** Kind of threshold; one of the four API names. */
  readonly name: NotificationEventName;
  readonly storageName?: string;
  readonly bucketName?: string;
  /** Limit in bytes (reaching_used_space, reaching_used_traffic). */
  readonly bytes?: number;
  /** Limit as a count (reaching_files_quantity, reaching_used_requests). */
  readonly count?: number;
  /** Client to act for (the `client_id` query of the write calls; resellers). */
  readonly clientId?: number;
  /**
   * The uuid of an existing event to take over instead of creating one: opt-in, never silent.
   * Every create reads it and verifies the event's identity; changing it causes no update.
   */
  readonly adoptUuid?: string;
}

/**
 * What the stack stores: the inputs plus the server-assigned `uuid`. Same shape from create,
 * update and read, so `pulumi refresh` right after `up` finds no change.
 */
export interface StorageEventOutputs extends StorageEventInputs {
  /** The event's identifier as assigned by the server (also the resource id). */
  readonly uuid: string;
}

/** The fields that form an event's identity on the server; changing one replaces the resource. */
export const IDENTITY_FIELDS = ["name", "storageName", "bucketName", "clientId"] as const;

/** The limit fields; changing one updates the event in place. */
export const LIMIT_FIELDS = ["bytes", "count"] as const;

/** Every input field, in the order messages and outputs list them. */
export const INPUT_FIELDS = ["name", "storageName", "bucketName", "bytes", "count", "clientId", "adoptUuid"] as const;

/** One input field name. */
export type StorageEventField = (typeof INPUT_FIELDS)[number];
