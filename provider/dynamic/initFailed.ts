/**
 * Partial state on the dynamic path: a lifecycle's {@link PartialResourceError} ("the platform
 * acted, a later step failed") is re-thrown with the serialized provider added to its
 * properties.
 *
 * Why: `@pulumi/pulumi`'s dynamic provider host turns a rejected error that carries `id`,
 * `properties` and `reasons` into the engine's `ErrorResourceInitFailed` detail (see
 * `grpcResponseFromError` in `@pulumi/pulumi/cmd/dynamic-provider`), and the engine records
 * those properties as the resource's outputs. Unlike a successful create, that path does not
 * merge `__provider` into them, and refresh, update and delete load the provider's code from
 * the outputs: without it the recorded resource could never be read or deleted.
 */
import { redact } from "../api/redact";
import { isPartialResourceError, PartialResourceError } from "../resources/partial";
import { PROVIDER_KEY } from "./providerKey";

/**
 * A rejection handler for create/update: partial state gets `__provider` from `raw` (the
 * engine's inputs of the call) and reasons without the key; any other error passes unchanged.
 */
export function keepProviderOnPartial(raw: Record<string, unknown> | undefined, secrets: () => readonly string[]): (err: unknown) => never {
  return (err) => {
    if (!isPartialResourceError(err)) throw err;
    const properties = raw?.[PROVIDER_KEY] === undefined ? err.properties : { ...err.properties, [PROVIDER_KEY]: raw[PROVIDER_KEY] };
    throw new PartialResourceError(err.message, err.id, properties, err.reasons.map((r) => redact(r, secrets())), err.cause);
  };
}
