/**
 * The create of a StorageEvent: adopt the event `adoptUuid` names, or check that the identity is
 * free, POST, and settle what an ambiguous or refused POST did (the rules are in the module
 * comment of `storageEvent.ts`).
 *
 * Why its own module: the create is the one write that can leave an event nobody records; its
 * pre-check, the resend after a lost answer, the 409 that is our own first send landing late and
 * the provisional id of a create whose uuid is unknown belong together.
 */
import { answeredWithoutKinds, type NotificationEvent } from "../../api";
import { PresenceUnclearError } from "../absence";
import type { LifecycleContext } from "../lifecycle";
import { PartialResourceError } from "../partial";
import { reconcileWrite, WriteOutcomeUnknownError } from "../writeAttempts";
import {
  describeEvent,
  EVENT_ENDPOINT,
  isConflict,
  sameIdentity,
  sameLimit,
  StorageEventAdoptionError,
  StorageEventConflictError,
  toEventBody,
  toOutputs,
} from "./events";
import { confirmOnlyOfItsIdentity } from "./firstEvent";
import { putLimit } from "./limitUpdate";
import { identityKey, locateByIdentity, locateByUuid, locateIdentityTaken, notifications, PENDING_ID_PREFIX } from "./locate";
import type { StorageEventInputs, StorageEventOutputs } from "./types";

/**
 * Create: with `adoptUuid`, take over that event (verified to have the declared identity; its
 * limit set to the declared one) without any POST. Otherwise fail before any write when this
 * run already creates the same identity or the list shows an event with it, and else POST.
 */
export async function create(ctx: LifecycleContext, wanted: StorageEventInputs): Promise<{ id: string; outs: StorageEventOutputs }> {
  if (wanted.adoptUuid) return adopt(ctx, wanted, wanted.adoptUuid);
  return claimAndCreate(ctx, wanted);
}

/** Creates `wanted` unless this run already creates its identity (see RunState.claimedEvents). */
export async function claimAndCreate(ctx: LifecycleContext, wanted: StorageEventInputs): Promise<{ id: string; outs: StorageEventOutputs }> {
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

/**
 * The check before the first send: fails when the list shows the identity taken or cannot tell.
 * Resolves whether the list was answered `{}` (an account without events, as far as it shows):
 * the create then confirms afterwards that its event is the only one of its identity.
 */
async function checkIdentityFree(ctx: LifecycleContext, wanted: StorageEventInputs): Promise<{ readonly answeredWithoutKinds: boolean }> {
  const api = notifications(ctx);
  let checked: readonly NotificationEvent[] = [];
  const list = async () => (checked = await ctx.run.eventLists.get("create-check", () => api.list()));
  const before = await locateIdentityTaken(list, wanted, true);
  if (before.state === "unclear") {
    throw new PresenceUnclearError(`an event ${describeEvent(wanted)}`, "nothing was created: a create checks the event list before it sends anything", before.reason, before.cause);
  }
  if (before.state === "present") throw new StorageEventConflictError(wanted, before.value, "exists");
  return { answeredWithoutKinds: answeredWithoutKinds(checked) };
}

async function createNew(ctx: LifecycleContext, wanted: StorageEventInputs): Promise<{ id: string; outs: StorageEventOutputs }> {
  const api = notifications(ctx);
  const lists = ctx.run.eventLists;
  const listNow = (): Promise<NotificationEvent[]> => lists.get("fresh", () => api.list());
  const checked = await checkIdentityFree(ctx, wanted);

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
  const uuid = await createdUuid(ctx, wanted, created);
  if (checked.answeredWithoutKinds) await confirmOnlyOfItsIdentity(ctx, wanted, uuid);
  return { id: uuid, outs: toOutputs(wanted, uuid) };
}

/**
 * The uuid of the event a create made. The server may not echo it (the spec does not say): then
 * it is looked up in the list, so update and delete can address the event.
 */
async function createdUuid(ctx: LifecycleContext, wanted: StorageEventInputs, created: NotificationEvent): Promise<string> {
  if (created.uuid) return created.uuid;
  const found = await locateByIdentity(() => ctx.run.eventLists.get("fresh", () => notifications(ctx).list()), wanted);
  if (found.state === "present" && found.value.uuid) return found.value.uuid;
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
  if (found.state === "unclear") throw new PresenceUnclearError(`storage event ${uuid}`, "nothing was adopted or changed", found.reason, found.cause);
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
