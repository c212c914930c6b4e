/**
 * `StorageEvent`: an object-storage notification threshold as a Pulumi resource.
 *
 * Why a dynamic resource: a TypeScript program then needs nothing but this npm package (other
 * languages get the same lifecycle from the `cloudplatform` plugin). The lifecycle lives in
 * `provider/resources/storageEvent.ts` and runs in the dynamic-provider process, which reads the
 * API key from the stack config (`cloudplatform:apiKey`), so the key never lands in state.
 */
import * as pulumi from "@pulumi/pulumi";
import type { NotificationEventName } from "../../provider/api/storage/notifications";
import { registrationOf } from "./internal/registration";

/**
 * The four kinds of threshold. `reaching_used_space` and `reaching_used_traffic` take a limit in
 * `bytes`; `reaching_files_quantity` and `reaching_used_requests` take a `count`.
 */
export type StorageEventName = NotificationEventName;

/**
 * Arguments of {@link StorageEvent}. Preview rejects, before any API call: an unknown `name`,
 * the limit of the other kind, a missing or negative/non-integer limit, a non-positive
 * `clientId`, and an event with neither `storageName` nor `bucketName`.
 */
export interface StorageEventArgs {
  /**
   * Kind of threshold: `reaching_used_space`, `reaching_files_quantity`,
   * `reaching_used_traffic` or `reaching_used_requests`. Part of the event's identity:
   * changing it replaces the event.
   */
  name: pulumi.Input<StorageEventName>;
  /**
   * Storage the threshold applies to. At least one of `storageName` and `bucketName` is
   * required: the API describes thresholds "of a storage or bucket", and an event scoped to
   * neither has no documented meaning. Part of the identity: changing it replaces the event.
   */
  storageName?: pulumi.Input<string>;
  /** Bucket the threshold applies to (see `storageName`). Changing it replaces the event. */
  bucketName?: pulumi.Input<string>;
  /**
   * Limit in bytes; required with `reaching_used_space` and `reaching_used_traffic`, not
   * allowed with the others. A non-negative integer. Changing it updates the event in place.
   */
  bytes?: pulumi.Input<number>;
  /**
   * Limit as a count; required with `reaching_files_quantity` and `reaching_used_requests`,
   * not allowed with the others. A non-negative integer. Changing it updates in place.
   */
  count?: pulumi.Input<number>;
  /**
   * Act for this client (the API's `client_id`, used by resellers); a positive integer.
   * Part of the identity: changing it replaces the event.
   */
  clientId?: pulumi.Input<number>;
  /**
   * Take over the existing event with this uuid instead of creating one. Opt-in on purpose:
   * creating a StorageEvent whose identity (name, storage, bucket, client) an existing event
   * already has fails, naming that event's uuid, because it may belong to another stack or
   * program. Set this to that uuid to say the event is yours: create then checks that it has
   * the declared identity, sets its limit to the declared one, and sends no POST. Changing or
   * removing it later causes no update. Remove it once the event is adopted: every create
   * reads it, so while it still names this event, a replacement (a changed name, storage,
   * bucket or client) or a re-creation after the event was deleted elsewhere is refused
   * instead of creating a new event. Deleting the resource later deletes the adopted event.
   * (With the cloudplatform plugin, `pulumi import` does the same.)
   */
  adoptUuid?: pulumi.Input<string>;
}

/**
 * A notification threshold on a storage or bucket (space, files, traffic or requests).
 *
 * The API allows one event per name, storage, bucket and client: declaring one that already
 * exists fails `pulumi up` before any write, with a message naming the existing event's uuid;
 * it is taken over only when you say so with `adoptUuid`. Deleting the resource deletes only
 * the event it owns (by uuid).
 * An event deleted outside Pulumi is dropped by refresh and recreated by the next `up`; a
 * limit changed outside Pulumi shows as drift on refresh.
 *
 * @example
 * ```ts
 * new StorageEvent("media-space", { name: "reaching_used_space", storageName: "media", bytes: 500_000_000 });
 * ```
 */
export class StorageEvent extends pulumi.CustomResource {
  /** Kind of threshold. */
  declare readonly name: pulumi.Output<StorageEventName>;
  /** Storage the threshold applies to, if any. */
  declare readonly storageName: pulumi.Output<string | undefined>;
  /** Bucket the threshold applies to, if any. */
  declare readonly bucketName: pulumi.Output<string | undefined>;
  /** Limit in bytes (space and traffic events). */
  declare readonly bytes: pulumi.Output<number | undefined>;
  /** Limit as a count (files and requests events). */
  declare readonly count: pulumi.Output<number | undefined>;
  /** Client the event was created for, if any. */
  declare readonly clientId: pulumi.Output<number | undefined>;
  /** Identifier assigned by the server (also the resource id). */
  declare readonly uuid: pulumi.Output<string>;

  /**
   * @param name the Pulumi resource name (unrelated to `args.name`, the threshold kind)
   * @param args the threshold
   * @param opts standard resource options
   */
  constructor(name: string, args: StorageEventArgs, opts?: pulumi.CustomResourceOptions) {
    const registration = registrationOf("StorageEvent", name, { ...args, uuid: undefined }, opts);
    super(registration.type, name, registration.props, registration.opts);
  }
}
