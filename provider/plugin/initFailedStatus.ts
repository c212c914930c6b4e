/**
 * Partial state on the plugin path: a lifecycle's {@link PartialResourceError} ("the platform
 * acted, a later step failed") becomes the gRPC error the engine reads as "the resource exists
 * but failed to initialise": the status code of the failure it wraps (UNKNOWN, or CANCELLED and
 * DEADLINE_EXCEEDED when Ctrl-C or `customTimeouts` stopped it) with a `pulumirpc.ErrorResourceInitFailed` detail
 * (`id`, `properties`, `reasons`) packed into `grpc-status-details-bin`.
 *
 * Why: without the detail the engine treats a failed Create as "nothing was created" and
 * forgets the object the platform holds; with it, the engine records the resource with its id
 * and properties, and updates it on the next `up`. The same detail `@pulumi/pulumi`'s dynamic
 * provider host sends for an error carrying `id` and `properties`, so both paths agree.
 */
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import * as provProto from "@pulumi/pulumi/proto/provider_pb";
import * as statusProto from "@pulumi/pulumi/proto/status_pb";
import { isPartialResourceError } from "../resources/partial";
import { grpcCodeOf } from "./grpcErrors";
import { toStruct } from "./values";

/**
 * The gRPC error for `err` when it is partial state, else undefined (the caller sends its plain
 * error). `scrub` removes the API key from the message and every reason.
 */
export function initFailedStatus(err: unknown, scrub: (text: string) => string): Partial<grpc.ServiceError> | undefined {
  if (!isPartialResourceError(err)) return undefined;
  const message = scrub(err.message);
  const detail = new provProto.ErrorResourceInitFailed();
  detail.setId(err.id);
  detail.setProperties(toStruct(err.properties));
  detail.setReasonsList(err.reasons.map(scrub));
  const any = new Any();
  any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusProto.Status();
  const code = grpcCodeOf(err);
  status.setCode(code);
  status.setMessage(message);
  status.addDetails(any);
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { code, details: message, message, metadata, name: "Error" };
}
