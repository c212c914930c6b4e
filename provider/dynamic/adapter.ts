/**
 * Turns a Pulumi-free {@link ResourceLifecycle} into the methods of a dynamic provider, with the
 * dynamic protocol's quirks the lifecycles should not know: the serialized `__provider` input
 * (kept on partial state too), the unknown-value sentinel at preview, errors without the API key,
 * a refused key explained by which key the operation used (keyRefusal.ts), and errors the host
 * would print twice more with a stack trace (hostErrors.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { guardOf, type Guard } from "../adapters/errorScrubbing";
import { explainKeyRefusal, type KeyOrigin, type KeyUse } from "../adapters/keyRefusal";
import { unknownInputs } from "../adapters/unknownValues";
import { redact } from "../api/redact";
import type { LifecycleContext, ResourceLifecycle } from "../resources/lifecycle";
import { isPartialResourceError, PartialResourceError } from "../resources/partial";
import { handOver } from "./hostErrors";
import { PROVIDER_KEY } from "./providerKey";

/** The dynamic provider methods, minus `configure` (handled once per process in runtime.ts). */
export type DynamicHandlers = Required<Omit<pulumi.dynamic.ResourceProvider, "configure">>;

function userInputs(props: Record<string, unknown> | undefined): Record<string, unknown> {
  const { [PROVIDER_KEY]: _provider, ...rest } = props ?? {};
  return rest;
}

/**
 * Whether a resource's state holds no `__provider`: the state of a resource the plugin managed
 * until this run (moved from an explicit provider to the stack's account, its URN aliased). The
 * host loads refresh and delete from the outputs' `__provider`, so such a resource is updated
 * once, writing nothing to the API, for the host to store it.
 */
function lacksProvider(olds: Record<string, unknown> | undefined): boolean {
  return olds?.[PROVIDER_KEY] === undefined;
}

/**
 * A rejection handler for create/update: partial state gets `__provider` from `raw` (the call's
 * inputs) and reasons without the key; other errors pass unchanged. The host reports an error
 * carrying `id`, `properties` and `reasons` as `ErrorResourceInitFailed`, whose properties become
 * the outputs without `__provider`; yet refresh, update and delete load the provider from them.
 */
function keepProviderOnPartial(raw: Record<string, unknown> | undefined, secrets: () => readonly string[]): (err: unknown) => never {
  return (err) => {
    if (!isPartialResourceError(err)) throw err;
    const properties = raw?.[PROVIDER_KEY] === undefined ? err.properties : { ...err.properties, [PROVIDER_KEY]: raw[PROVIDER_KEY] };
    throw new PartialResourceError(err.message, err.id, properties, err.reasons.map((r) => redact(r, secrets())), err.cause);
  };
}

/**
 * The guard of one kind of operation: the error scrubbed of the key, a refused key explained as
 * `use` (a read or delete may run with the settings saved in the state: the host cannot tell),
 * and remembered as handed to the host.
 */
function operationGuard(secrets: () => readonly string[], use: KeyUse, keyOrigin: () => KeyOrigin, adviceGiven: () => Set<string>): Guard {
  const scrub = guardOf(secrets);
  const explain = (err: unknown) => Promise.reject(explainKeyRefusal(err, use, keyOrigin(), adviceGiven()));
  return <T>(work: () => Promise<T>) => scrub(() => work().catch(explain)).catch((err: unknown) => Promise.reject(handOver(err)));
}

/**
 * Builds the dynamic handlers of one lifecycle. `context` supplies the client and log;
 * `secrets` lists what must never appear in an error (the API key); `keyOrigin` says where the
 * configured key came from (config or environment).
 */
export function toDynamicHandlers<I, O>(
  lifecycle: ResourceLifecycle<I, O>,
  context: () => LifecycleContext,
  secrets: () => readonly string[],
  keyOrigin: () => KeyOrigin = () => "config",
): DynamicHandlers {
  const adviceGiven = () => context().run.keyAdviceGiven;
  const guard = operationGuard(secrets, "current", keyOrigin, adviceGiven);
  const savedGuard = operationGuard(secrets, "savedUnlessRunProgram", keyOrigin, adviceGiven);
  return {
    check: (_olds, news) =>
      guard(async () => {
        const inputs = userInputs(news);
        const result = await lifecycle.check(context(), inputs, unknownInputs(inputs));
        return { inputs: result.inputs, failures: result.failures };
      }),
    diff: (id, olds, news) =>
      guard(async () => {
        const result = await lifecycle.diff(id, userInputs(olds) as O, userInputs(news) as I);
        return !result.changes && lacksProvider(olds) ? { ...result, changes: true } : result;
      }),
    create: (inputs) => guard(() => lifecycle.create(context(), userInputs(inputs) as I).catch(keepProviderOnPartial(inputs, secrets))),
    read: (id, props) =>
      savedGuard(async () => {
        const result = await lifecycle.read(context(), id, userInputs(props) as O);
        // An empty id tells the engine the object is gone (refresh drops it).
        if (!result) return { id: "", props: {} };
        return { id: result.id, props: result.outs as Record<string, unknown>, inputs: result.inputs } as pulumi.dynamic.ReadResult;
      }),
    update: (id, olds, news) =>
      guard(async () => {
        if (lacksProvider(olds) && !(await lifecycle.diff(id, userInputs(olds) as O, userInputs(news) as I)).changes) return { outs: userInputs(olds) };
        return { outs: await lifecycle.update(context(), id, userInputs(olds) as O, userInputs(news) as I).catch(keepProviderOnPartial(news, secrets)) };
      }),
    delete: (id, props) => savedGuard(() => lifecycle.delete(context(), id, userInputs(props) as O)),
  };
}
