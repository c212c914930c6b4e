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
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as pluginProto from "@pulumi/pulumi/proto/plugin_pb";
import * as provRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provProto from "@pulumi/pulumi/proto/provider_pb";
import { createClient, redact, type CloudPlatformClient } from "../api";
import { VERSION } from "../api/version";
import { LookupCache, runLookup } from "../lookups";
import type { LifecycleContext } from "../resources/lifecycle";
import { RunState, type RunOptions } from "../resources/runState";
import { API_KEY_CONFIG, BASE_URL_CONFIG, CONFIG_NAMESPACE, resolveConnectionSettings, type ConnectionSettings } from "../settings";
import { connectEngineLog, silentLog, type EngineLog } from "./engineLog";
import { FUNCTIONS } from "./functions";
import { toPluginHandlers, type PluginResourceHandlers } from "./resourceAdapter";
import { resourceTypes, type LifecycleOverrides } from "./resourceTypes";
import { SCHEMA_TEXT } from "./schema";
import { fromStruct, toStruct, type PlainProperties } from "./values";

/** The provider's config keys, as the engine names them in `Configure` args. */
const CONFIG_KEYS = { apiKey: API_KEY_CONFIG, baseUrl: BASE_URL_CONFIG } as const;

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
}

/** Everything one `Configure` sets up: settings, client, run facts and lookup cache. */
interface Configuration {
  readonly settings: ConnectionSettings;
  readonly run: RunState;
  readonly cache: LookupCache;
  client?: CloudPlatformClient;
}

type Handler<Req, Res> = (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>) => void;

/**
 * A gRPC handler from an async function; a thrown error becomes the call's error text, passed
 * through `scrub` (the key redaction) whatever threw it.
 */
function unary<Req, Res>(work: (req: Req) => Promise<Res>, scrub: (text: string) => string): Handler<Req, Res> {
  return (call, callback) => {
    work(call.request).then(
      (res) => callback(null, res),
      (err: unknown) => {
        const message = scrub(err instanceof Error ? err.message : String(err));
        callback({ code: grpc.status.UNKNOWN, details: message, message, name: "Error" }, null);
      },
    );
  };
}

function union(...sets: ReadonlySet<string>[]): Set<string> {
  return new Set(sets.flatMap((s) => [...s]));
}

/** The plugin service: state of one plugin process (one engine, one provider configuration). */
export class CloudPlatformPlugin {
  private engine: EngineLog;
  private config: Configuration;
  private readonly handlers: ReadonlyMap<string, PluginResourceHandlers>;

  constructor(private readonly options: PluginOptions = {}) {
    this.engine = options.engineAddress ? connectEngineLog(options.engineAddress) : silentLog;
    this.config = this.newConfiguration(() => undefined);
    const secrets = (): readonly string[] => (this.config.settings.apiKey ? [this.config.settings.apiKey] : []);
    this.handlers = new Map([...resourceTypes(options.lifecycles)].map(([token, t]) => [token, toPluginHandlers(t.lifecycle, t.shape, secrets)]));
  }

  /** Stops the engine log connection. */
  close(): void {
    this.engine.close();
  }

  private newConfiguration(lookup: (key: string) => string | undefined): Configuration {
    return { settings: resolveConnectionSettings(lookup, this.options.env ?? process.env), run: new RunState(this.options.runOptions), cache: new LookupCache() };
  }

  private redacted(text: string): string {
    return this.config.settings.apiKey ? redact(text, [this.config.settings.apiKey]) : text;
  }

  private clientOf(config: Configuration): CloudPlatformClient {
    const { baseUrl, apiKey, maxConcurrentRequests } = config.settings;
    return (config.client ??= createClient({ baseUrl: baseUrl ?? "", apiKey: apiKey ?? "", maxConcurrentRequests }));
  }

  /**
   * The lifecycle context of one call on the resource `urn`: progress goes to its row and to
   * its diagnostics (the engine shows the resource's type and name, so lines carry no prefix).
   */
  private contextFor(urn: string): LifecycleContext {
    const config = this.config;
    return {
      client: () => this.clientOf(config),
      log: (message) => {
        const line = this.redacted(message);
        void this.engine.log("info", line, urn, true);
        void this.engine.log("info", line, urn, false);
      },
      run: config.run,
    };
  }

  private handlersOf(type: string, urn: string): PluginResourceHandlers {
    const token = type || urnType(urn);
    const found = this.handlers.get(token);
    if (!found) throw new Error(`cloudplatform: unknown resource type ${JSON.stringify(token)}; this plugin serves ${[...this.handlers.keys()].join(", ")}`);
    return found;
  }

  /** The service implementation for `grpc.Server.addService`. */
  service(): Partial<provRpc.IResourceProviderServer> {
    const scrub = (text: string): string => this.redacted(text);
    return {
      handshake: unary(async (req: provProto.ProviderHandshakeRequest) => {
        this.useEngine(req.getEngineAddress());
        const res = new provProto.ProviderHandshakeResponse();
        res.setAcceptSecrets(true);
        res.setAcceptResources(false);
        res.setAcceptOutputs(false);
        return res;
      }, scrub),
      attach: unary(async (req: pluginProto.PluginAttach) => {
        this.useEngine(req.getAddress());
        return new Empty();
      }, scrub),
      getPluginInfo: unary(async () => new pluginProto.PluginInfo().setVersion(VERSION), scrub),
      getSchema: unary(async (req: provProto.GetSchemaRequest) => {
        if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
        return new provProto.GetSchemaResponse().setSchema(SCHEMA_TEXT);
      }, scrub),
      checkConfig: unary(async (req: provProto.CheckRequest) => this.checkConfig(fromStruct(req.getNews())), scrub),
      diffConfig: unary(async (req: provProto.DiffRequest) => this.diffConfig(fromStruct(req.getOlds()).values, fromStruct(req.getNews()).values), scrub),
      configure: unary(async (req: provProto.ConfigureRequest) => this.configure(req), scrub),
      cancel: unary(async () => new Empty(), scrub),
      invoke: unary(async (req: provProto.InvokeRequest) => this.invoke(req.getTok(), fromStruct(req.getArgs())), scrub),
      check: unary(async (req: provProto.CheckRequest) => {
        const news = fromStruct(req.getNews());
        const result = await this.handlersOf(req.getType(), req.getUrn()).check(this.contextFor(req.getUrn()), news.values);
        const res = new provProto.CheckResponse().setInputs(toStruct(result.inputs, news.secretKeys));
        res.setFailuresList(result.failures.map((f) => new provProto.CheckFailure().setProperty(f.property).setReason(this.redacted(f.reason))));
        return res;
      }, scrub),
      diff: unary(async (req: provProto.DiffRequest) => {
        const result = await this.handlersOf(req.getType(), req.getUrn()).diff(req.getId(), fromStruct(req.getOlds()).values, fromStruct(req.getNews()).values);
        const res = new provProto.DiffResponse();
        res.setChanges(result.changes ? provProto.DiffResponse.DiffChanges.DIFF_SOME : provProto.DiffResponse.DiffChanges.DIFF_NONE);
        res.setReplacesList(result.replaces);
        res.setDiffsList(result.diffs);
        res.setDeletebeforereplace(result.deleteBeforeReplace);
        return res;
      }, scrub),
      create: unary(async (req: provProto.CreateRequest) => {
        const inputs = fromStruct(req.getProperties());
        const { id, outs } = await this.handlersOf(req.getType(), req.getUrn()).create(this.contextFor(req.getUrn()), inputs.values, req.getPreview());
        return new provProto.CreateResponse().setId(id).setProperties(toStruct(outs, inputs.secretKeys));
      }, scrub),
      read: unary(async (req: provProto.ReadRequest) => {
        const props = fromStruct(req.getProperties());
        const inputs = fromStruct(req.getInputs());
        const found = await this.handlersOf(req.getType(), req.getUrn()).read(this.contextFor(req.getUrn()), req.getId(), props.values);
        const res = new provProto.ReadResponse();
        if (!found) return res; // an empty id: the object is gone
        const secret = union(props.secretKeys, inputs.secretKeys);
        return res.setId(found.id).setProperties(toStruct(found.outs, secret)).setInputs(toStruct(found.inputs, secret));
      }, scrub),
      update: unary(async (req: provProto.UpdateRequest) => {
        const olds = fromStruct(req.getOlds());
        const news = fromStruct(req.getNews());
        const ctx = this.contextFor(req.getUrn());
        const outs = await this.handlersOf(req.getType(), req.getUrn()).update(ctx, req.getId(), olds.values, news.values, req.getPreview());
        return new provProto.UpdateResponse().setProperties(toStruct(outs, news.secretKeys));
      }, scrub),
      delete: unary(async (req: provProto.DeleteRequest) => {
        const props = fromStruct(req.getProperties());
        await this.handlersOf(req.getType(), req.getUrn()).delete(this.contextFor(req.getUrn()), req.getId(), props.values);
        return new Empty();
      }, scrub),
    };
  }

  private useEngine(address: string): void {
    if (!address || this.options.engineAddress === address) return;
    this.engine.close();
    this.engine = connectEngineLog(address);
  }

  /**
   * Checks the provider config: each of `apiKey` and `baseUrl` is a string when given. The key
   * goes back marked secret even when set in plain text, so the engine never stores it plainly.
   */
  private checkConfig(news: PlainProperties): provProto.CheckResponse {
    const failures: provProto.CheckFailure[] = [];
    for (const key of Object.keys(CONFIG_KEYS)) {
      const value = news.values[key];
      if (value !== undefined && typeof value !== "string") {
        failures.push(new provProto.CheckFailure().setProperty(key).setReason(`${CONFIG_NAMESPACE}:${key} must be a string, got ${typeof value}`));
      }
    }
    const res = new provProto.CheckResponse().setInputs(toStruct(news.values, union(news.secretKeys, new Set(["apiKey"]))));
    return res.setFailuresList(failures);
  }

  /** A changed key or base URL changes the provider in place; resources are never replaced for it. */
  private diffConfig(olds: Record<string, unknown>, news: Record<string, unknown>): provProto.DiffResponse {
    const changed = Object.keys(CONFIG_KEYS).filter((k) => olds[k] !== news[k]);
    const res = new provProto.DiffResponse().setDiffsList(changed);
    return res.setChanges(changed.length > 0 ? provProto.DiffResponse.DiffChanges.DIFF_SOME : provProto.DiffResponse.DiffChanges.DIFF_NONE);
  }

  /**
   * Takes the config (args, or the older string variables `cloudplatform:config:<key>`), with
   * the environment fallbacks, and starts a fresh run: new client, RunState and lookup cache.
   */
  private configure(req: provProto.ConfigureRequest): provProto.ConfigureResponse {
    const args = fromStruct(req.getArgs() as Struct | undefined).values;
    const variables = req.getVariablesMap();
    this.config = this.newConfiguration((fullKey) => {
      const key = fullKey.slice(CONFIG_NAMESPACE.length + 1);
      const fromArgs = args[key];
      if (typeof fromArgs === "string") return fromArgs;
      if (typeof fromArgs === "number") return String(fromArgs);
      return variables.get(`${CONFIG_NAMESPACE}:config:${key}`) ?? undefined;
    });
    const res = new provProto.ConfigureResponse();
    res.setAcceptsecrets(true);
    res.setSupportspreview(true);
    res.setAcceptresources(false);
    res.setAcceptoutputs(false);
    return res;
  }

  /** Runs the lookup named by `token` with the configured settings and this run's cache. */
  private async invoke(token: string, args: PlainProperties): Promise<provProto.InvokeResponse> {
    const def = FUNCTIONS.get(token);
    if (!def) throw new Error(`cloudplatform: unknown function ${JSON.stringify(token)}; this plugin serves ${[...FUNCTIONS.keys()].join(", ")}`);
    const config = this.config;
    try {
      const result = await runLookup(def, args.values, {
        settings: config.settings,
        cache: config.cache,
        progress: (message) => void this.engine.log("info", this.redacted(`cloudplatform: ${message}`)),
        clientOptions: {
          onRetry: (e) => {
            void this.engine.log("info", this.redacted(`cloudplatform: ${e.method} ${e.path} failed (${e.reason}); retrying in ${Math.ceil(e.delayMs / 1000)} s (attempt ${e.attempt + 1})`));
          },
        },
      });
      return new provProto.InvokeResponse().setReturn(toStruct(result as object));
    } catch (err) {
      throw new Error(this.redacted(err instanceof Error ? err.message : String(err)));
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
