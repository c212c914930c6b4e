/**
 * The engine's side of the plugin protocol, for tests: a ResourceProvider client on the
 * plugin's port and a fake Engine log service that records every Log call.
 */
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as engineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineProto from "@pulumi/pulumi/proto/engine_pb";
import * as provRpc from "@pulumi/pulumi/proto/provider_grpc_pb";

/** One recorded Log call. */
export interface LoggedLine {
  severity: number;
  message: string;
  urn: string;
  ephemeral: boolean;
}

/** A fake engine log service on a free port. */
export async function startFakeEngine(): Promise<{ address: string; lines: LoggedLine[]; close(): void }> {
  const lines: LoggedLine[] = [];
  const server = new grpc.Server();
  const impl: Partial<engineRpc.IEngineServer> = {
    log: (call: grpc.ServerUnaryCall<engineProto.LogRequest, Empty>, cb: grpc.sendUnaryData<Empty>) => {
      const r = call.request;
      lines.push({ severity: r.getSeverity(), message: r.getMessage(), urn: r.getUrn(), ephemeral: r.getEphemeral() });
      cb(null, new Empty());
    },
  };
  server.addService(engineRpc.EngineService, impl as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { address: `127.0.0.1:${port}`, lines, close: () => server.forceShutdown() };
}

/** A provider client on `port`. */
export function providerClient(port: number): provRpc.ResourceProviderClient {
  return new provRpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}

/** One unary call as a Promise. */
export function call<Req, Res>(client: provRpc.ResourceProviderClient, method: string, req: Req): Promise<Res> {
  return new Promise((resolve, reject) => {
    const fn = (client as unknown as Record<string, (r: Req, cb: (e: grpc.ServiceError | null, res: Res) => void) => void>)[method];
    if (!fn) throw new Error(`no method ${method}`);
    fn.call(client, req, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** A struct of plain values. */
export function struct(values: Record<string, unknown>): Struct {
  return Struct.fromJavaScript(values as Parameters<typeof Struct.fromJavaScript>[0]);
}

/** A secret value as the engine sends it. */
export function secret(value: unknown): Record<string, unknown> {
  return { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value };
}
