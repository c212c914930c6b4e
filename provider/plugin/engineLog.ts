/**
 * Progress and diagnostics through the engine's `Log` RPC.
 *
 * Why: a plugin's stdout/stderr reach the user as anonymous diagnostics at best; a message sent
 * to the engine's log service with the resource's URN is shown against that resource, and an
 * `ephemeral` one is a status line on the resource's row while it works (an upgrade taking
 * minutes shows what it waits for). Sending never fails a resource operation: a lost log line
 * is better than a failed upgrade.
 */
import * as grpc from "@grpc/grpc-js";
import * as engineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineProto from "@pulumi/pulumi/proto/engine_pb";

/** Severity of a log line (the engine's levels). */
export type LogLevel = "debug" | "info" | "warning" | "error";

const SEVERITY: Record<LogLevel, engineProto.LogSeverity> = {
  debug: engineProto.LogSeverity.DEBUG,
  info: engineProto.LogSeverity.INFO,
  warning: engineProto.LogSeverity.WARNING,
  error: engineProto.LogSeverity.ERROR,
};

/** Where log lines go; `urn` ties a line to a resource, `ephemeral` makes it a status line. */
export interface EngineLog {
  log(level: LogLevel, message: string, urn?: string, ephemeral?: boolean): Promise<void>;
  close(): void;
}

/** A log over the engine at `address` (`host:port`, the plugin's first argument). */
export function connectEngineLog(address: string): EngineLog {
  const client = new engineRpc.EngineClient(address, grpc.credentials.createInsecure());
  return {
    log: (level, message, urn, ephemeral = false) =>
      new Promise<void>((resolve) => {
        const req = new engineProto.LogRequest();
        req.setSeverity(SEVERITY[level]);
        req.setMessage(message);
        if (urn) req.setUrn(urn);
        req.setEphemeral(ephemeral);
        client.log(req, () => resolve());
      }),
    close: () => client.close(),
  };
}

/** A log that drops every line (no engine address, e.g. `GetSchema` from `pulumi package`). */
export const silentLog: EngineLog = { log: async () => undefined, close: () => undefined };
