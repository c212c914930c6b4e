/**
 * Setting a StorageEvent's limit: the PUT of the declared `bytes`/`count` to an event the
 * resource owns or adopts, reconciled by listing after an ambiguous failure (`writeAttempts.ts`).
 *
 * Why its own module: the create path (adoption) and the update path both set a limit, and an
 * event deleted outside Pulumi must fail the same way from either.
 */
import { CloudPlatformError } from "../../api/errors";
import { messageOf } from "../../caughtErrors";
import { isEventNotFoundAnswer } from "../absence";
import type { LifecycleContext } from "../lifecycle";
import { reconcileWrite } from "../writeAttempts";
import { describeEvent, sameLimit, toEventBody } from "./events";
import { locateByUuid, notifications } from "./locate";
import type { StorageEventInputs } from "./types";

/** PUTs the declared limit to the event `uuid`, reconciling an ambiguous failure by listing. */
export async function putLimit(ctx: LifecycleContext, uuid: string, wanted: StorageEventInputs): Promise<void> {
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
    throw new StorageEventGoneError(wanted, uuid, messageOf(err));
  }
}

/**
 * The event a resource updates was deleted outside Pulumi. The server's words stay in the message
 * and not as `cause`: that answer is a 400, and a cause would make the plugin report a bad argument.
 */
export class StorageEventGoneError extends CloudPlatformError {
  /** @internal */
  constructor(
    wanted: StorageEventInputs,
    /** The event's uuid, as the stack records it. */
    readonly uuid: string,
    serverWords: string,
  ) {
    super(
      `Cannot update storage event ${describeEvent(wanted)} (uuid ${uuid}): it no longer exists on the server (deleted outside Pulumi). ` +
        "Run `pulumi refresh` (or `pulumi up --refresh`) so Pulumi notices and creates it again. " +
        `(${serverWords})`,
    );
  }
}
