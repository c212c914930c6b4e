/**
 * The gRPC `ResourceProvider` service of the `cloudplatform` plugin.
 *
 * Why served here and not through `@pulumi/pulumi/provider`: that server answers `Configure`
 * without handing the config to the provider and leaves `CheckConfig`/`DiffConfig`
 * unimplemented, so the API key and base URL could never reach us. This file only translates:
 * structs and secrets to plain values ({@link fromStruct}), each call to a lifecycle
 * ({@link toPluginHandlers}) or lookup ({@link runLookup}), and the answer back.
 */
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as pluginProto from "@pulumi/pulumi/proto/plugin_pb";
import * as provRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provProto from "@pulumi/pulumi/proto/provider_pb";
import { explainKeyRefusal, type KeyUse } from "../adapters/keyRefusal";
import { secretsOf } from "../adapters/secrets";
import { redact } from "../api";
import { messageOf } from "../caughtErrors";
import { VERSION } from "../api/version";
import { API_KEY_CONFIG } from "../settings";
import { LookupArgumentError, runLookup } from "../lookups";
import type { LifecycleOverrides } from "../adapters/resourceDefinitions";
import type { LifecycleContext } from "../resources/lifecycle";
import type { RunOptions } from "../resources/runState";
import { connectEngineLog, silentLog, type EngineLog } from "./engineLog";
import { initFailedStatus } from "./initFailedStatus";
import { FUNCTIONS } from "./functions";
import { grpcCodeOf, InvalidRequestError } from "./grpcErrors";
import { OperationLimits, type CustomTimeout } from "./operationLimits";
import { checkConfig, clientOf, configuredValues, configureResponse, diffConfig, newConfiguration, type Configuration } from "./providerConfig";
import { SCHEMA_TEXT } from "./packageSchema";
import { resourceHandlersByToken, type PluginResourceHandlers } from "./resourceAdapter";
import { fromStruct, toStruct, type PlainProperties } from "./values";

/** What a plugin instance is made with. */
export interface PluginOptions {
  /** The engine's `host:port` (log service); none means log lines are dropped. */
  readonly engineAddress?: string | undefined;
  /** Environment for the config fallbacks (CLOUDPLATFORM_API_KEY / CLOUDPLATFORM_BASE_URL). */
  readonly env?: NodeJS.ProcessEnv;
  /** Options of each configuration's RunState (tests shorten write settling). */
  readonly runOptions?: RunOptions;
  /** Lifecycles to serve instead of the production ones (tests shorten polling). */
  readonly lifecycles?: LifecycleOverrides;
  /** Opens the engine's log service (tests count the connections). */
  readonly connectEngineLog?: (address: string) => EngineLog;
}

type Handler<Req, Res> = (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>) => void;

/**
 * A gRPC handler from an async function; a thrown error becomes the call's error text, passed
 * through `scrub` (the key redaction) whatever threw it, with the status code of its kind.
 */
function unary<Req, Res>(work: (req: Req) => Promise<Res>, scrub: (text: string) => string): Handler<Req, Res> {
  return (call, callback) => {
    work(call.request).then(
      (res) => callback(null, res),
      (err: unknown) => {
        const message = scrub(messageOf(err));
        callback(initFailedStatus(err, scrub) ?? { code: grpcCodeOf(err), details: message, message, name: "Error" }, null);
      },
    );
  };
}

/** The `customTimeouts` field of `operation`, when the engine sent one (seconds > 0). */
function customTimeout(operation: CustomTimeout["operation"], seconds: number): CustomTimeout | undefined {
  return seconds > 0 ? { operation, seconds } : undefined;
}

/** The schema, for the only schema version there is. */
function schemaResponse(req: provProto.GetSchemaRequest): provProto.GetSchemaResponse {
  if (req.getVersion() !== 0) throw new InvalidRequestError(`unsupported schema version ${req.getVersion()}`);
  return new provProto.GetSchemaResponse().setSchema(SCHEMA_TEXT);
}

/** Secret when marked secret on either side. */
function union(...sets: ReadonlySet<string>[]): Set<string> {
  return new Set(sets.flatMap((s) => [...s]));
}

/** The plugin service: state of one plugin process (one engine, one provider configuration). */
export class CloudPlatformPlugin {
  private engine: EngineLog;
  private engineAddress: string | undefined;
  private config: Configuration;
  /** The API key of the last `CheckConfig` (the program's provider config); see {@link keyUseOf}. */
  private checkedKey: { readonly apiKey: unknown } | undefined;
  private readonly handlers: ReadonlyMap<string, PluginResourceHandlers>;
  /** `Cancel` and `customTimeouts`: the abort signal of every operation. */
  private readonly limits = new OperationLimits();
  private readonly connect: (address: string) => EngineLog;

  constructor(private readonly options: PluginOptions = {}) {
    this.connect = options.connectEngineLog ?? connectEngineLog;
    this.engineAddress = options.engineAddress || undefined;
    this.engine = this.engineAddress ? this.connect(this.engineAddress) : silentLog;
    this.config = newConfiguration(() => undefined, options.env ?? process.env, options.runOptions);
    const secrets = (): readonly string[] => secretsOf(this.config.settings);
    this.handlers = resourceHandlersByToken(options.lifecycles ?? {}, secrets);
  }

  /** Remembers the key of a `CheckConfig` (the program's provider config); passes `news` on. */
  private checked(news: PlainProperties): PlainProperties {
    this.checkedKey = { apiKey: news.values.apiKey };
    return news;
  }

  /** Which key the reads and deletes of a `Configure` with `values` use (see {@link Configuration.keyUse}). */
  private keyUseOf(values: (fullKey: string) => string | undefined): Configuration["keyUse"] {
    const checked = this.checkedKey;
    this.checkedKey = undefined;
    return checked !== undefined && String(checked.apiKey ?? "") === (values(API_KEY_CONFIG) ?? "") ? "current" : "saved";
  }

  close(): void {
    this.engine.close();
  }

  /**
   * Runs one operation under `Cancel` and `timeout`; a refused key in its error is explained as
   * `use` (which key the operation sent: see {@link Configuration.keyUse}), from where this
   * configuration's key came.
   */
  private operation<T>(timeout: CustomTimeout | undefined, work: (signal: AbortSignal) => Promise<T>, use: KeyUse = "current"): Promise<T> {
    return this.limits.run(timeout, work).catch((err: unknown) => Promise.reject(explainKeyRefusal(err, use, this.config.settings.apiKeyFrom, this.config.run.keyAdviceGiven)));
  }

  private redacted(text: string): string {
    return redact(text, secretsOf(this.config.settings));
  }

  /**
   * The lifecycle context of one call on the resource `urn`, stopped by `signal`: each line
   * goes out once, a status report on the resource's row, any other line to its diagnostics
   * (the engine shows the resource's type and name, so lines carry no prefix).
   */
  private contextFor(urn: string, signal: AbortSignal): LifecycleContext {
    const config = this.config;
    return {
      client: () => clientOf(config).withSignal(signal),
      log: (message, options) => void this.engine.log(options?.warning ? "warning" : "info", this.redacted(message), urn, options?.status === true),
      run: config.run,
      signal,
    };
  }

  private handlersOf(type: string, urn: string): PluginResourceHandlers {
    const token = type || urnType(urn);
    const found = this.handlers.get(token);
    if (!found) throw new InvalidRequestError(`cloudplatform: unknown resource type ${JSON.stringify(token)}; this plugin serves ${[...this.handlers.keys()].join(", ")}`);
    return found;
  }

  /** The service implementation for `grpc.Server.addService`. */
  service(): Partial<provRpc.IResourceProviderServer> {
    const scrub = (text: string): string => this.redacted(text);
    const serve = <Req, Res>(work: (req: Req) => Promise<Res>): Handler<Req, Res> => unary(work, scrub);
    return {
      handshake: serve(async (req: provProto.ProviderHandshakeRequest) => this.handshake(req)),
      attach: serve(async (req: pluginProto.PluginAttach) => {
        this.useEngine(req.getAddress());
        return new Empty();
      }),
      getPluginInfo: serve(async () => new pluginProto.PluginInfo().setVersion(VERSION)),
      getSchema: serve(async (req: provProto.GetSchemaRequest) => schemaResponse(req)),
      checkConfig: serve(async (req: provProto.CheckRequest) => checkConfig(this.checked(fromStruct(req.getNews())), scrub)),
      diffConfig: serve(async (req: provProto.DiffRequest) => diffConfig(fromStruct(req.getOlds()).values, fromStruct(req.getNews()).values)),
      configure: serve(async (req: provProto.ConfigureRequest) => this.configure(req)),
      cancel: serve(async () => {
        this.limits.cancel();
        return new Empty();
      }),
      invoke: serve(async (req: provProto.InvokeRequest) => this.operation(undefined, (signal) => this.invoke(req.getTok(), fromStruct(req.getArgs()), signal))),
      check: serve((req: provProto.CheckRequest) => this.check(req)),
      diff: serve((req: provProto.DiffRequest) => this.diff(req)),
      create: serve((req: provProto.CreateRequest) => this.create(req)),
      read: serve((req: provProto.ReadRequest) => this.read(req)),
      update: serve((req: provProto.UpdateRequest) => this.update(req)),
      delete: serve((req: provProto.DeleteRequest) => this.delete(req)),
    };
  }

  private handshake(req: provProto.ProviderHandshakeRequest): provProto.ProviderHandshakeResponse {
    this.useEngine(req.getEngineAddress());
    const res = new provProto.ProviderHandshakeResponse();
    res.setAcceptSecrets(true);
    res.setAcceptResources(false);
    res.setAcceptOutputs(false);
    return res;
  }

  /** A fresh run: new settings, client, RunState and lookup cache. */
  private configure(req: provProto.ConfigureRequest): provProto.ConfigureResponse {
    const values = configuredValues(req);
    this.config = newConfiguration(values, this.options.env ?? process.env, this.options.runOptions, this.keyUseOf(values));
    return configureResponse();
  }

  private async check(req: provProto.CheckRequest): Promise<provProto.CheckResponse> {
    const news = fromStruct(req.getNews());
    const handlers = this.handlersOf(req.getType(), req.getUrn());
    const result = await this.operation(undefined, (signal) => handlers.check(this.contextFor(req.getUrn(), signal), news.values));
    const res = new provProto.CheckResponse().setInputs(toStruct(result.inputs, news.secretKeys));
    res.setFailuresList(result.failures.map((f) => new provProto.CheckFailure().setProperty(f.property).setReason(this.redacted(f.reason))));
    return res;
  }

  private async diff(req: provProto.DiffRequest): Promise<provProto.DiffResponse> {
    const result = await this.handlersOf(req.getType(), req.getUrn()).diff(req.getId(), fromStruct(req.getOlds()).values, fromStruct(req.getNews()).values);
    const res = new provProto.DiffResponse();
    res.setChanges(result.changes ? provProto.DiffResponse.DiffChanges.DIFF_SOME : provProto.DiffResponse.DiffChanges.DIFF_NONE);
    res.setReplacesList(result.replaces);
    res.setDiffsList(result.diffs);
    res.setDeletebeforereplace(result.deleteBeforeReplace);
    return res;
  }

  private async create(req: provProto.CreateRequest): Promise<provProto.CreateResponse> {
    const inputs = fromStruct(req.getProperties());
    const handlers = this.handlersOf(req.getType(), req.getUrn());
    const { id, outs } = await this.operation(customTimeout("create", req.getTimeout()), (signal) =>
      handlers.create(this.contextFor(req.getUrn(), signal), inputs.values, req.getPreview()),
    );
    return new provProto.CreateResponse().setId(id).setProperties(toStruct(outs, inputs.secretKeys));
  }

  private async read(req: provProto.ReadRequest): Promise<provProto.ReadResponse> {
    const props = fromStruct(req.getProperties());
    const inputs = fromStruct(req.getInputs());
    const handlers = this.handlersOf(req.getType(), req.getUrn());
    const found = await this.operation(undefined, (signal) => handlers.read(this.contextFor(req.getUrn(), signal), req.getId(), props.values), this.config.keyUse);
    const res = new provProto.ReadResponse();
    if (!found) return res; // an empty id: the object is gone
    const secret = union(props.secretKeys, inputs.secretKeys);
    return res.setId(found.id).setProperties(toStruct(found.outs, secret)).setInputs(toStruct(found.inputs, secret));
  }

  private async update(req: provProto.UpdateRequest): Promise<provProto.UpdateResponse> {
    const olds = fromStruct(req.getOlds());
    const news = fromStruct(req.getNews());
    const handlers = this.handlersOf(req.getType(), req.getUrn());
    const outs = await this.operation(customTimeout("update", req.getTimeout()), (signal) =>
      handlers.update(this.contextFor(req.getUrn(), signal), req.getId(), olds.values, news.values, req.getPreview()),
    );
    return new provProto.UpdateResponse().setProperties(toStruct(outs, news.secretKeys));
  }

  private async delete(req: provProto.DeleteRequest): Promise<Empty> {
    const props = fromStruct(req.getProperties());
    const handlers = this.handlersOf(req.getType(), req.getUrn());
    const remove = (signal: AbortSignal) => handlers.delete(this.contextFor(req.getUrn(), signal), req.getId(), props.values);
    await this.operation(customTimeout("delete", req.getTimeout()), remove, this.config.keyUse);
    return new Empty();
  }

  /** Logs go to the engine at `address` from now on; the same address keeps the connection. */
  private useEngine(address: string): void {
    if (!address || this.engineAddress === address) return;
    this.engine.close();
    this.engineAddress = address;
    this.engine = this.connect(address);
  }

  /**
   * Runs the lookup named by `token` with the configured settings and this run's cache. A bad
   * argument comes back as the response's check failure (the protocol's place for it, so the
   * SDK names the argument); a result computed from a secret argument is secret as a whole.
   */
  private async invoke(token: string, args: PlainProperties, signal: AbortSignal): Promise<provProto.InvokeResponse> {
    const def = FUNCTIONS.get(token);
    if (!def) throw new InvalidRequestError(`cloudplatform: unknown function ${JSON.stringify(token)}; this plugin serves ${[...FUNCTIONS.keys()].join(", ")}`);
    const config = this.config;
    try {
      const result = await runLookup(def, args.values, {
        settings: config.settings,
        cache: config.cache,
        signal,
        progress: (message) => void this.engine.log("info", this.redacted(`cloudplatform: ${message}`)),
      });
      const values = result as Record<string, unknown>;
      const secret = args.secretKeys.size > 0 ? new Set(Object.keys(values)) : new Set<string>();
      return new provProto.InvokeResponse().setReturn(toStruct(values, secret));
    } catch (err) {
      // Any other error is redacted, with the status code of its kind, by `unary`.
      if (!(err instanceof LookupArgumentError)) throw err;
      return new provProto.InvokeResponse().setFailuresList([new provProto.CheckFailure().setProperty(err.argument).setReason(this.redacted(err.message))]);
    }
  }
}

/** The type token inside a URN (`urn:pulumi:stack::project::<type>::<name>`; parent types before `$`). */
function urnType(urn: string): string {
  return urn.split("::")[2]?.split("$").pop() ?? "";
}

/** Starts the plugin's gRPC server on a free loopback port; resolves the port and the server. */
export async function serve(options: PluginOptions = {}): Promise<{ port: number; server: grpc.Server; plugin: CloudPlatformPlugin }> {
  const plugin = new CloudPlatformPlugin(options);
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(provRpc.ResourceProviderService, plugin.service() as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  return { port, server, plugin };
}
