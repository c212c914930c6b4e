/**
 * The gRPC status of a failed plugin call.
 *
 * Why not always UNKNOWN: the code is what tools and the engine's logs branch on; a bad
 * argument, a missing key, a cancelled or timed-out operation each say so in the code, and the
 * message stays the error's own text (scrubbed of the key by the caller).
 */
import * as grpc from "@grpc/grpc-js";
import {
  AuthenticationError,
  CloudPlatformError,
  ConfigurationError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
} from "../api/errors";
import { LookupArgumentError } from "../lookups/errors";
import { ClusterIdError } from "../resources/k8sClusterUpgrade";
import { TaskTimeoutError } from "../tasks/errors";
import { CustomTimeoutError, OperationCancelledError } from "./operationLimits";

/** A request the plugin cannot serve as asked (unknown token, unsupported version): the caller's mistake. */
export class InvalidRequestError extends CloudPlatformError {}

/** The status code for `err`. */
export function grpcCodeOf(err: unknown): grpc.status {
  if (err instanceof InvalidRequestError || err instanceof LookupArgumentError || err instanceof ValidationError || err instanceof ClusterIdError) {
    return grpc.status.INVALID_ARGUMENT;
  }
  if (err instanceof ConfigurationError) return grpc.status.FAILED_PRECONDITION;
  if (err instanceof AuthenticationError) return grpc.status.UNAUTHENTICATED;
  if (err instanceof PermissionDeniedError) return grpc.status.PERMISSION_DENIED;
  if (err instanceof NotFoundError) return grpc.status.NOT_FOUND;
  if (err instanceof ConflictError) return grpc.status.ABORTED;
  if (err instanceof RateLimitError) return grpc.status.RESOURCE_EXHAUSTED;
  if (err instanceof OperationCancelledError) return grpc.status.CANCELLED;
  if (err instanceof CustomTimeoutError || err instanceof TaskTimeoutError) return grpc.status.DEADLINE_EXCEEDED;
  // A wrapper (partial state around a task timeout, say) has the code of what it wraps.
  const cause = err instanceof Error ? err.cause : undefined;
  return cause !== undefined && cause !== err ? grpcCodeOf(cause) : grpc.status.UNKNOWN;
}
