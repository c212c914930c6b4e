/**
 * Partial state on the plugin path: a {@link PartialResourceError} becomes the gRPC error the
 * engine reads as "the resource exists but failed to initialise" (a
 * `pulumirpc.ErrorResourceInitFailed` detail in `grpc-status-details-bin`, as the dynamic
 * provider host sends it), with the status code of the failure it wraps. Without it the engine
 * forgets the object the platform holds.
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
