/**
 * The native plugin's gRPC service, driven as the engine drives it, against the simulator:
 * config (args, secrets, env fallback), schema, check/diff/create/read/update/delete of both
 * resources (preview, import, secrets re-marked), lookups as invokes, progress logged against
 * the resource's URN, and no API key in any error.
 */
import type * as grpc from "@grpc/grpc-js";
import { status as grpcStatus } from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as pluginProto from "@pulumi/pulumi/proto/plugin_pb";
import * as provProto from "@pulumi/pulumi/proto/provider_pb";
import type * as provRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { VERSION } from "../../../provider/api/version";
import { createK8sClusterUpgradeLifecycle } from "../../../provider/resources/k8sClusterUpgrade";
import { FUNCTIONS } from "../../../provider/plugin/functions";
import { serve } from "../../../provider/plugin/server";
import { UNKNOWN_VALUE } from "../../../provider/plugin/values";
import { startSimulator, type RunningSimulator } from "../../../simulator";
import { admin, newKey } from "../api/helpers";
import { call, providerClient, secret, startFakeEngine, struct, type LoggedLine } from "./grpcClient";
import * as sdk from "../../../sdk/nodejs";

const KEY = newKey();
const SE = "cloudplatform:index:StorageEvent";
const K8S = "cloudplatform:index:K8sClusterUpgrade";
const urnOf = (type: string, name: string) => `urn:pulumi:dev::proj::${type}::${name}`;

let sim: RunningSimulator;
let engine: Awaited<ReturnType<typeof startFakeEngine>>;
let server: grpc.Server;
let client: provRpc.ResourceProviderClient;
let stopPlugin: () => void;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, timeScale: 40 });
  engine = await startFakeEngine();
  const served = await serve({
    engineAddress: engine.address,
    env: {},
    runOptions: { writeTiming: { settleMs: 20, requestTimeoutMs: 1_500, inFlightMarginMs: 50 } },
    lifecycles: { K8sClusterUpgrade: createK8sClusterUpgradeLifecycle({ pollSchedule: { initialMs: 50, factor: 1.5, maxMs: 200 } }) },
  });
  server = served.server;
  stopPlugin = () => served.plugin.close();
  client = providerClient(served.port);
});
afterAll(async () => {
  client.close();
  stopPlugin();
  server.forceShutdown();
  engine.close();
  await sim.close();
});
beforeEach(() => {
  sim.reset();
  engine.lines.length = 0;
});

async function configure(args: Record<string, unknown> = { apiKey: secret(KEY), baseUrl: sim.url }): Promise<provProto.ConfigureResponse> {
  const req = new provProto.ConfigureRequest().setArgs(struct(args)).setAcceptsecrets(true);
  return call(client, "configure", req);
}

async function check(type: string, name: string, news: Record<string, unknown>) {
  const req = new provProto.CheckRequest().setUrn(urnOf(type, name)).setType(type).setName(name).setNews(struct(news)).setOlds(struct({}));
  const res = await call<provProto.CheckRequest, provProto.CheckResponse>(client, "check", req);
  return { inputs: res.getInputs()?.toJavaScript() ?? {}, failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })) };
}

async function create(type: string, name: string, props: Record<string, unknown>, preview = false) {
  const req = new provProto.CreateRequest().setUrn(urnOf(type, name)).setType(type).setName(name).setProperties(struct(props)).setPreview(preview);
  const res = await call<provProto.CreateRequest, provProto.CreateResponse>(client, "create", req);
  return { id: res.getId(), outs: res.getProperties()?.toJavaScript() ?? {} };
}

async function read(type: string, name: string, id: string, props: Record<string, unknown> = {}) {
  const req = new provProto.ReadRequest().setUrn(urnOf(type, name)).setType(type).setName(name).setId(id).setProperties(struct(props)).setInputs(struct({}));
  const res = await call<provProto.ReadRequest, provProto.ReadResponse>(client, "read", req);
  return { id: res.getId(), outs: res.getProperties()?.toJavaScript() ?? {}, inputs: res.getInputs()?.toJavaScript() ?? {} };
}

async function diff(type: string, name: string, id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
  const req = new provProto.DiffRequest().setUrn(urnOf(type, name)).setType(type).setName(name).setId(id).setOlds(struct(olds)).setNews(struct(news));
  return call<provProto.DiffRequest, provProto.DiffResponse>(client, "diff", req);
}

async function update(type: string, name: string, id: string, olds: Record<string, unknown>, news: Record<string, unknown>, preview = false) {
  const req = new provProto.UpdateRequest().setUrn(urnOf(type, name)).setType(type).setName(name).setId(id).setOlds(struct(olds)).setNews(struct(news)).setPreview(preview);
  const res = await call<provProto.UpdateRequest, provProto.UpdateResponse>(client, "update", req);
  return res.getProperties()?.toJavaScript() ?? {};
}

async function remove(type: string, name: string, id: string, props: Record<string, unknown>) {
  const req = new provProto.DeleteRequest().setUrn(urnOf(type, name)).setType(type).setName(name).setId(id).setProperties(struct(props));
  await call(client, "delete", req);
}

async function invoke(token: string, args: Record<string, unknown>) {
  const req = new provProto.InvokeRequest().setTok(token).setArgs(struct(args));
  const res = await call<provProto.InvokeRequest, provProto.InvokeResponse>(client, "invoke", req);
  return res.getReturn()?.toJavaScript() as Record<string, unknown>;
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
}

describe("plugin metadata and config", () => {
  test("GetPluginInfo answers the package version; GetSchema the generated schema", async () => {
    const info = await call<Empty, pluginProto.PluginInfo>(client, "getPluginInfo", new Empty());
    expect(info.getVersion()).toBe(VERSION);
    const res = await call<provProto.GetSchemaRequest, provProto.GetSchemaResponse>(client, "getSchema", new provProto.GetSchemaRequest());
    const schema = JSON.parse(res.getSchema()) as { name: string; resources: object; functions: object };
    expect(schema.name).toBe("cloudplatform");
    expect(Object.keys(schema.resources).sort()).toEqual([K8S, SE]);
    expect(Object.keys(schema.functions).sort()).toEqual([...FUNCTIONS.keys()].sort());
    // Every lookup of the TypeScript SDK is a function of the plugin, and nothing else is.
    const sdkLookups = Object.keys(sdk).filter((k) => /^get\w+Output$/.test(k)).map((k) => `cloudplatform:index:${k.replace(/Output$/, "")}`);
    expect([...FUNCTIONS.keys()].sort()).toEqual(sdkLookups.sort());
  });

  test("CheckConfig marks apiKey secret and names a non-string setting", async () => {
    const ok = await call<provProto.CheckRequest, provProto.CheckResponse>(client, "checkConfig", new provProto.CheckRequest().setNews(struct({ apiKey: KEY, baseUrl: sim.url })));
    expect(ok.getFailuresList()).toEqual([]);
    expect(ok.getInputs()?.toJavaScript()).toEqual({ apiKey: secret(KEY), baseUrl: sim.url });
    const bad = await call<provProto.CheckRequest, provProto.CheckResponse>(client, "checkConfig", new provProto.CheckRequest().setNews(struct({ baseUrl: 42 })));
    expect(bad.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([["baseUrl", "cloudplatform:baseUrl must be a string, got number"]]);
    // The parsed settings fail at check, naming the setting and what it allows, not at the first request.
    const parsed = await call<provProto.CheckRequest, provProto.CheckResponse>(
      client,
      "checkConfig",
      new provProto.CheckRequest().setNews(struct({ allowInsecureHttp: "yes", maxConcurrentRequests: 0, resellerPaths: "waap" })),
    );
    expect(parsed.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([
      ["allowInsecureHttp", expect.stringMatching(/cloudplatform:allowInsecureHttp .* must be true or false, got "yes"/)],
      ["maxConcurrentRequests", expect.stringMatching(/maxConcurrentRequests must be an integer from 1 to 256 \(default 8\), got "0"/)],
      ["resellerPaths", expect.stringMatching(/resellerPaths must be one of auto, public, spec, got "waap": set the Pulumi config `cloudplatform:resellerPaths`/)],
    ]);
    const fine = await call<provProto.CheckRequest, provProto.CheckResponse>(
      client,
      "checkConfig",
      new provProto.CheckRequest().setNews(struct({ allowInsecureHttp: true, maxConcurrentRequests: 16, resellerPaths: "public" })),
    );
    expect(fine.getFailuresList()).toEqual([]);
  });

  test("DiffConfig reports a changed key or URL as an in-place change, never a replace", async () => {
    const same = await call<provProto.DiffRequest, provProto.DiffResponse>(client, "diffConfig", new provProto.DiffRequest().setOlds(struct({ baseUrl: "a" })).setNews(struct({ baseUrl: "a" })));
    expect(same.getChanges()).toBe(provProto.DiffResponse.DiffChanges.DIFF_NONE);
    const changed = await call<provProto.DiffRequest, provProto.DiffResponse>(client, "diffConfig", new provProto.DiffRequest().setOlds(struct({ apiKey: secret("a") })).setNews(struct({ apiKey: secret("b") })));
    expect(changed.getChanges()).toBe(provProto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(changed.getDiffsList()).toEqual(["apiKey"]);
    expect(changed.getReplacesList()).toEqual([]);
    const limit = await call<provProto.DiffRequest, provProto.DiffResponse>(client, "diffConfig", new provProto.DiffRequest().setOlds(struct({ maxConcurrentRequests: 8 })).setNews(struct({ maxConcurrentRequests: 4 })));
    expect(limit.getDiffsList()).toEqual(["maxConcurrentRequests"]);
    expect(limit.getReplacesList()).toEqual([]);
  });

  test("Configure takes the secret key from args and accepts secrets", async () => {
    const res = await configure();
    expect(res.getAcceptsecrets()).toBe(true);
    expect(res.getSupportspreview()).toBe(true);
    const projects = await invoke("cloudplatform:index:getProjects", {});
    expect((projects["ids"] as number[]).length).toBeGreaterThan(0);
  });

  test("without config the error names both ways to set the key and base URL", async () => {
    await configure({});
    const err = await rejection(invoke("cloudplatform:index:getProjects", {}));
    expect(err.message).toMatch(/getProjects: /);
    expect(err.message).toMatch(/CLOUDPLATFORM_BASE_URL|cloudplatform:baseUrl/);
  });

  test("without config, CLOUDPLATFORM_API_KEY / CLOUDPLATFORM_BASE_URL are used", async () => {
    const other = await serve({ env: { CLOUDPLATFORM_API_KEY: KEY, CLOUDPLATFORM_BASE_URL: sim.url } });
    const otherClient = providerClient(other.port);
    try {
      await call(otherClient, "configure", new provProto.ConfigureRequest().setArgs(struct({})));
      const res = await call<provProto.InvokeRequest, provProto.InvokeResponse>(otherClient, "invoke", new provProto.InvokeRequest().setTok("cloudplatform:index:getResellerPing").setArgs(struct({})));
      expect(res.getReturn()?.toJavaScript()).toMatchObject({ healthy: true });
    } finally {
      otherClient.close();
      other.server.forceShutdown();
    }
  });

  test("the older string variables are read when args are absent", async () => {
    const req = new provProto.ConfigureRequest();
    req.getVariablesMap().set("cloudplatform:config:apiKey", KEY).set("cloudplatform:config:baseUrl", sim.url);
    await call(client, "configure", req);
    const ping = await invoke("cloudplatform:index:getResellerPing", {});
    expect(ping["healthy"]).toBe(true);
  });
});

describe("StorageEvent through the plugin", () => {
  beforeEach(async () => {
    await configure();
  });

  test("check failures name the field; unknown inputs at preview are no failure", async () => {
    const bad = await check(SE, "e", { name: "reaching_the_moon", storageName: "s", bytes: 1 });
    expect(bad.failures).toEqual([expect.objectContaining({ property: "name" })]);
    expect(bad.failures[0]?.reason).toMatch(/reaching_used_space/);
    const pending = await check(SE, "e", { name: "reaching_used_space", storageName: UNKNOWN_VALUE, bytes: 5 });
    expect(pending.failures).toEqual([]);
  });

  test("create (preview then real), import by uuid, no-change diff, update in place, delete", async () => {
    const inputs = { name: "reaching_used_space", storageName: "media", bytes: secret(500) };
    const checked = await check(SE, "media", inputs);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs["bytes"]).toEqual(secret(500));

    const preview = await create(SE, "media", checked.inputs, true);
    expect(preview.outs["uuid"]).toBe(UNKNOWN_VALUE);
    expect(sim.state().storageEvents).toEqual([]);

    const made = await create(SE, "media", checked.inputs);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: made.id, bytes: 500 })]);
    expect(made.outs).toEqual({ name: "reaching_used_space", storageName: "media", bytes: secret(500), uuid: made.id });

    // Import: a read with the id only, as `pulumi import` does.
    const imported = await read(SE, "media", made.id);
    expect(imported.id).toBe(made.id);
    expect(imported.inputs).toEqual({ name: "reaching_used_space", storageName: "media", bytes: 500 });
    expect(imported.outs).toEqual({ ...imported.inputs, uuid: made.id });

    const plainOuts = { ...imported.outs };
    const none = await diff(SE, "media", made.id, plainOuts, { name: "reaching_used_space", storageName: "media", bytes: 500 });
    expect(none.getChanges()).toBe(provProto.DiffResponse.DiffChanges.DIFF_NONE);
    const some = await diff(SE, "media", made.id, plainOuts, { name: "reaching_used_space", storageName: "media", bytes: 900 });
    expect(some.getChanges()).toBe(provProto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(some.getReplacesList()).toEqual([]);
    expect(some.getDiffsList()).toEqual(["bytes"]);
    const replace = await diff(SE, "media", made.id, plainOuts, { name: "reaching_used_space", storageName: "other", bytes: 500 });
    expect(replace.getReplacesList()).toEqual(["storageName"]);

    const updatePreview = await update(SE, "media", made.id, plainOuts, { name: "reaching_used_space", storageName: "media", bytes: 900 }, true);
    expect(updatePreview["uuid"]).toBe(made.id);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ bytes: 500 })]);
    const updated = await update(SE, "media", made.id, plainOuts, { name: "reaching_used_space", storageName: "media", bytes: 900 });
    expect(updated).toEqual({ name: "reaching_used_space", storageName: "media", bytes: 900, uuid: made.id });
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: made.id, bytes: 900 })]);

    await remove(SE, "media", made.id, updated);
    expect(sim.state().storageEvents).toEqual([]);
    expect((await read(SE, "media", made.id)).id).toBe("");
  });

  test("an unknown resource type is an error naming the served types", async () => {
    const err = await rejection(create("cloudplatform:index:Nope", "x", {}));
    expect(err.message).toMatch(/unknown resource type "cloudplatform:index:Nope".*StorageEvent/);
  });
});

describe("K8sClusterUpgrade through the plugin", () => {
  beforeEach(async () => {
    await configure();
  });

  test("import by <projectId>/<regionId>/<clusterName>, then an upgrade whose progress is logged on the resource's URN", async () => {
    const imported = await read(K8S, "prod", "1/76/prod-cluster");
    expect(imported.id).toBe("1/76/prod-cluster");
    expect(imported.inputs).toEqual({ projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.30.4", allowMultiStep: false, timeoutMinutes: 60 });

    const news = (await check(K8S, "prod", { ...imported.inputs, version: "v1.31.2" })).inputs;
    const d = await diff(K8S, "prod", imported.id, imported.outs, news);
    expect(d.getChanges()).toBe(provProto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(d.getReplacesList()).toEqual([]);

    const outs = await update(K8S, "prod", imported.id, imported.outs, news);
    expect(outs).toMatchObject({ version: "v1.31.2", previousVersion: "v1.30.4", upgradePath: ["v1.31.2"], status: "Provisioned" });
    expect(sim.state().clusters.find((c) => c.name === "prod-cluster")?.version).toBe("v1.31.2");

    const urn = urnOf(K8S, "prod");
    const onRow = (l: LoggedLine) => l.urn === urn && l.ephemeral;
    await waitFor(() => engine.lines.some(onRow) && engine.lines.some((l) => /Provisioned at/.test(l.message)));
    expect(engine.lines.filter(onRow).map((l) => l.message).join("\n")).toMatch(/prod-cluster: upgrade to v1\.31\.2 \w+, \d+s elapsed/);
    expect(engine.lines.every((l) => l.urn === urn)).toBe(true);
    // Each line goes out once: progress reports as the row's status, the rest kept as diagnostics.
    const messages = engine.lines.map((l) => l.message);
    expect(messages).toEqual([...new Set(messages)]);
    expect(engine.lines.filter((l) => /elapsed/.test(l.message)).every((l) => l.ephemeral)).toBe(true);
    expect(engine.lines.filter((l) => /upgrading v1\.30\.4 -> v1\.31\.2|Provisioned at v1\.31\.2/.test(l.message)).map((l) => l.ephemeral)).toEqual([false, false]);
  });

  test("diff on outputs of a state written before the optional inputs had defaults names only what changed", async () => {
    const { allowMultiStep: _a, timeoutMinutes: _t, soakSeconds: _s, ...olderOuts } = (await read(K8S, "prod", "1/76/prod-cluster")).outs;
    const declared = { projectId: 1, regionId: 76, clusterName: "prod-cluster", allowMultiStep: false, timeoutMinutes: 60, soakSeconds: 0 };
    const same = await diff(K8S, "prod", "1/76/prod-cluster", olderOuts, { ...declared, version: "v1.30.4" });
    expect(same.getChanges()).toBe(provProto.DiffResponse.DiffChanges.DIFF_NONE);
    expect(same.getDiffsList()).toEqual([]);
    const upgrade = await diff(K8S, "prod", "1/76/prod-cluster", olderOuts, { ...declared, version: "v1.31.2" });
    expect(upgrade.getChanges()).toBe(provProto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(upgrade.getDiffsList()).toEqual(["version"]);
  });

  test("preview of an update marks the upgrade's results unknown and keeps the cluster id", async () => {
    const imported = await read(K8S, "prod", "1/76/prod-cluster");
    const outs = await update(K8S, "prod", imported.id, imported.outs, { ...imported.inputs, version: "v1.31.2" }, true);
    expect(outs).toMatchObject({ version: "v1.31.2", clusterId: imported.outs["clusterId"], status: UNKNOWN_VALUE, upgradePath: UNKNOWN_VALUE });
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });
});

describe("lookups as invokes", () => {
  beforeEach(async () => {
    await configure();
  });

  // Every function is called with real arguments by the Python program (pythonProgram.test.ts);
  // here, that an invoke reaches the lookup and returns its result as a struct.
  test("a lookup is served under its token and answers with its result", async () => {
    const region = await invoke("cloudplatform:index:getRegion", { id: 76 });
    expect(region["id"]).toBe(76);
    const cluster = await invoke("cloudplatform:index:getK8sCluster", { projectId: 1, regionId: 76, clusterName: "prod-cluster" });
    expect(cluster["version"]).toBe("v1.30.4");
  });

  test("a bad argument is the invoke's check failure, naming the argument, before any request", async () => {
    sim.reset();
    const req = new provProto.InvokeRequest().setTok("cloudplatform:index:getInstances").setArgs(struct({ projectId: "one", regionId: 76 }));
    const res = await call<provProto.InvokeRequest, provProto.InvokeResponse>(client, "invoke", req);
    const failures = res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
    expect(failures).toEqual([{ property: "projectId", reason: expect.stringMatching(/getInstances: projectId/) }]);
    expect(res.getReturn()).toBeUndefined();
    expect(sim.requests()).toEqual([]);
  });

  test("reseller invokes against a platform serving only the reference's paths: one 404 at the public path, then the reference's", async () => {
    const specOnly = await startSimulator({ apiKey: KEY, resellerPaths: "spec" });
    try {
      await configure({ apiKey: secret(KEY), baseUrl: specOnly.url });
      expect((await invoke("cloudplatform:index:getResellerPing", {}))["healthy"]).toBe(true);
      const totals = await invoke("cloudplatform:index:getResellerTotals", { metric: "domains", clientIds: [101], from: "2026-09-01", to: "2026-09-03" });
      expect(totals["rows"]).toHaveLength(2);
      expect(specOnly.requests().map((r) => [r.path, r.status])).toEqual([
        ["/waap/ping", 404],
        ["/waap/reseller/ping", 200],
        ["/waap/reseller/v1/prebilling/total/domains", 200],
      ]);
    } finally {
      await specOnly.close();
    }
  });

  test("a filter value the public API's query enum lacks (status RESCUE) is the invoke's check failure, naming the allowed values", async () => {
    sim.reset();
    const req = new provProto.InvokeRequest().setTok("cloudplatform:index:getInstances").setArgs(struct({ projectId: 1, regionId: 76, status: "RESCUE" }));
    const res = await call<provProto.InvokeRequest, provProto.InvokeResponse>(client, "invoke", req);
    const failures = res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
    expect(failures).toEqual([{ property: "status", reason: expect.stringMatching(/getInstances: status must be one of ACTIVE, BUILD, .*VERIFY_RESIZE; got "RESCUE"/) }]);
    expect(sim.requests()).toEqual([]);
  });

  test("a result computed from a secret argument comes back secret; from plain arguments, plain", async () => {
    const plain = await invoke("cloudplatform:index:getRegion", { id: 76 });
    expect(plain["id"]).toBe(76);
    const fromSecret = await invoke("cloudplatform:index:getRegion", { id: secret(76) });
    expect(Object.keys(fromSecret).length).toBeGreaterThan(1);
    for (const [key, value] of Object.entries(fromSecret)) expect([key, value]).toEqual([key, secret(plain[key])]);
  });

  test("errors carry the status code of their kind: a bad token is INVALID_ARGUMENT, not UNKNOWN", async () => {
    const unknownFunction = (await rejection(invoke("cloudplatform:index:getNothing", {}))) as grpc.ServiceError;
    expect(unknownFunction.code).toBe(grpcStatus.INVALID_ARGUMENT);
    const unknownType = (await rejection(create("cloudplatform:index:Nope", "x", {}))) as grpc.ServiceError;
    expect(unknownType.code).toBe(grpcStatus.INVALID_ARGUMENT);
    const badImportId = (await rejection(read(K8S, "prod", "prod-cluster"))) as grpc.ServiceError;
    expect([badImportId.code, badImportId.message]).toEqual([grpcStatus.INVALID_ARGUMENT, expect.stringContaining("such as 1/76/prod-cluster")]);
    await configure({});
    const unconfigured = (await rejection(invoke("cloudplatform:index:getProjects", {}))) as grpc.ServiceError;
    expect(unconfigured.code).toBe(grpcStatus.FAILED_PRECONDITION);
  });

  test("an unknown function names the served ones", async () => {
    const err = await rejection(invoke("cloudplatform:index:getNothing", {}));
    expect(err.message).toMatch(/unknown function "cloudplatform:index:getNothing".*getProjects/);
  });

  test("the API key never appears in an error, even when an argument echoes it", async () => {
    const err = await rejection(invoke("cloudplatform:index:getProject", { name: KEY }));
    expect(err.message).toMatch(/getProject/);
    expect(err.message).not.toContain(KEY);
    const failed = await check(SE, "e", { name: KEY, storageName: "s", bytes: 1 });
    expect(JSON.stringify(failed.failures)).not.toContain(KEY);
    // An error raised outside the lookups and lifecycles (an unknown type or function token
    // that echoes the key) is scrubbed as well.
    const unknownType = await rejection(check(`cloudplatform:index:${KEY}`, "x", {}));
    expect(unknownType.message).toMatch(/unknown resource type "cloudplatform:index:\[REDACTED\]"/);
    const unknownFunction = await rejection(invoke(`cloudplatform:index:${KEY}`, {}));
    expect(unknownFunction.message).toMatch(/unknown function "cloudplatform:index:\[REDACTED\]"/);
  });
});

async function waitFor(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !predicate(); i++) await new Promise((r) => setTimeout(r, 20));
}

describe("the engine connection", () => {
  test("Handshake and Attach with the address already in use keep the connection; a new address replaces it", async () => {
    const opened: string[] = [];
    const closed: string[] = [];
    const other = await serve({
      env: {},
      connectEngineLog: (address) => {
        opened.push(address);
        return { log: async () => undefined, close: () => void closed.push(address) };
      },
    });
    const otherClient = providerClient(other.port);
    try {
      const handshake = (address: string) => call(otherClient, "handshake", new provProto.ProviderHandshakeRequest().setEngineAddress(address));
      const attach = (address: string) => call(otherClient, "attach", new pluginProto.PluginAttach().setAddress(address));
      await handshake("127.0.0.1:1111");
      await attach("127.0.0.1:1111");
      await handshake("127.0.0.1:1111");
      expect(opened).toEqual(["127.0.0.1:1111"]);
      await attach("127.0.0.1:2222");
      expect(opened).toEqual(["127.0.0.1:1111", "127.0.0.1:2222"]);
      expect(closed).toEqual(["127.0.0.1:1111"]);
    } finally {
      otherClient.close();
      other.plugin.close();
      other.server.forceShutdown();
    }
  });
});

/**
 * Cancel and customTimeouts against a simulator whose upgrade task takes 30 simulated seconds
 * at a tenth of real speed (300 s): each test ends long before the task could.
 */
describe("Cancel and customTimeouts", () => {
  let slow: RunningSimulator;
  beforeAll(async () => {
    slow = await startSimulator({ apiKey: KEY, timeScale: 0.1 });
  });
  afterAll(async () => {
    await slow.close();
  });
  beforeEach(() => slow.reset());

  /** A plugin of its own (Cancel ends a plugin for good), configured for the slow simulator. */
  async function slowPlugin() {
    const served = await serve({ env: {}, lifecycles: { K8sClusterUpgrade: createK8sClusterUpgradeLifecycle({ pollSchedule: { initialMs: 50, factor: 1.5, maxMs: 200 } }) } });
    const c = providerClient(served.port);
    await call(c, "configure", new provProto.ConfigureRequest().setArgs(struct({ apiKey: secret(KEY), baseUrl: slow.url })));
    return {
      client: c,
      close: () => {
        c.close();
        served.plugin.close();
        served.server.forceShutdown();
      },
    };
  }

  const declared = { projectId: 1, regionId: 76, clusterName: "prod-cluster", allowMultiStep: false, timeoutMinutes: 60 };
  const upgradePosts = () => slow.requests().filter((r) => r.method === "POST" && /\/upgrade$/.test(r.path));
  const upgradeRequest = (timeoutSeconds = 0) =>
    new provProto.UpdateRequest()
      .setUrn(urnOf(K8S, "prod"))
      .setType(K8S)
      .setId("1/76/prod-cluster")
      .setOlds(struct({ ...declared, version: "v1.30.4" }))
      .setNews(struct({ ...declared, version: "v1.31.2" }))
      .setTimeout(timeoutSeconds);
  const clusterTask = () => slow.state().clusters.find((c) => c.name === "prod-cluster")?.task_id ?? null;

  test("Cancel ends an upgrade wait in flight with CANCELLED; the task runs on; later operations stop at once", async () => {
    const p = await slowPlugin();
    try {
      const update = rejection(call(p.client, "update", upgradeRequest()));
      await until(() => clusterTask() !== null);
      await call(p.client, "cancel", new Empty());
      const err = (await update) as grpc.ServiceError;
      expect(err.code).toBe(grpcStatus.CANCELLED);
      expect(err.details).toMatch(/^cancelled by the engine \(an interrupt, or another resource's failure that stopped the run\): (prod-cluster: )?Stopped waiting for task \S+ \(upgrade_k8s_cluster\)/);
      expect(err.details).toMatch(/the next `pulumi up` finds it and waits for it/);
      expect(err.details).not.toMatch(/\.\./);
      // The upgrade was started: the engine is told the resource exists (partial state), as
      // for any other failure after the platform acted.
      expect(err.metadata.get("grpc-status-details-bin")).toHaveLength(1);
      expect(upgradePosts()).toHaveLength(1);
      expect(clusterTask()).not.toBeNull();

      const before = slow.requests().length;
      const late = (await rejection(call(p.client, "update", upgradeRequest()))) as grpc.ServiceError;
      expect(late.code).toBe(grpcStatus.CANCELLED);
      expect(slow.requests()).toHaveLength(before);
    } finally {
      p.close();
    }
  });

  test("Cancel stops an invoke's requests and retries, not only its answer", async () => {
    const p = await slowPlugin();
    try {
      await admin(slow, "POST", "/faults", { errorRate: 1, path: "/cloud/v1/projects", method: "GET" });
      const projectRequests = () => slow.requests().filter((r) => r.path === "/cloud/v1/projects").length;
      const lookup = rejection(call(p.client, "invoke", new provProto.InvokeRequest().setTok("cloudplatform:index:getProjects").setArgs(struct({}))));
      await until(() => projectRequests() >= 1);
      await call(p.client, "cancel", new Empty());
      const err = (await lookup) as grpc.ServiceError;
      expect(err.code).toBe(grpcStatus.CANCELLED);
      // The answer is the client's own end (its retry loop stopped on the signal, with the
      // RequestAbortedError of the request), not the plugin's grace timer answering for a lookup
      // that goes on retrying ("stopped while waiting"): so no request follows the Cancel.
      expect(err.details).toMatch(/^cancelled by the engine \(an interrupt, or another resource's failure that stopped the run\): .*GET \/cloud\/v1\/projects was cancelled by the caller/);
      const atCancel = projectRequests();
      await call(p.client, "getPluginInfo", new Empty());
      expect(projectRequests()).toBe(atCancel);
    } finally {
      p.close();
    }
  });

  test("customTimeouts bound the whole update: the error names customTimeouts.update and the task runs on", async () => {
    const p = await slowPlugin();
    try {
      const err = (await rejection(call(p.client, "update", upgradeRequest(1)))) as grpc.ServiceError;
      expect(err.code).toBe(grpcStatus.DEADLINE_EXCEEDED);
      expect(err.details).toMatch(/^customTimeouts\.update \(1s\) ran out before the update finished: (prod-cluster: )?Stopped waiting for task/);
      expect(upgradePosts()).toHaveLength(1);
      expect(clusterTask()).not.toBeNull();
      // The plugin is not cancelled: the next operation runs and finds the task to wait for.
      const again = (await rejection(call(p.client, "update", upgradeRequest(1)))) as grpc.ServiceError;
      expect(again.details).toMatch(/customTimeouts\.update/);
      expect(upgradePosts()).toHaveLength(1);
    } finally {
      p.close();
    }
  });

  test("customTimeouts bound a create too: the error names customTimeouts.create, and the engine still records the cluster (partial state)", async () => {
    const p = await slowPlugin();
    try {
      const create = new provProto.CreateRequest()
        .setUrn(urnOf(K8S, "prod"))
        .setType(K8S)
        .setProperties(struct({ ...declared, version: "v1.31.2" }))
        .setTimeout(1);
      const err = (await rejection(call(p.client, "create", create))) as grpc.ServiceError;
      expect(err.code).toBe(grpcStatus.DEADLINE_EXCEEDED);
      expect(err.details).toMatch(/^customTimeouts\.create \(1s\) ran out before the create finished: /);
      expect(err.metadata.get("grpc-status-details-bin")).toHaveLength(1);
      expect(upgradePosts()).toHaveLength(1);
      expect(clusterTask()).not.toBeNull();
    } finally {
      p.close();
    }
  });

  test("timeoutMinutes smaller than customTimeouts: the error names timeoutMinutes", async () => {
    // A waiter clock on which each sleep passes at once: an hour's polling takes moments.
    let now = 0;
    const clock = { now: () => now, sleep: async (ms: number) => void (now += ms, await new Promise((r) => setImmediate(r))) };
    const served = await serve({ env: {}, lifecycles: { K8sClusterUpgrade: createK8sClusterUpgradeLifecycle({ clock, pollSchedule: { initialMs: 5_000, maxMs: 10_000 } }) } });
    const c = providerClient(served.port);
    try {
      await call(c, "configure", new provProto.ConfigureRequest().setArgs(struct({ apiKey: secret(KEY), baseUrl: slow.url })));
      const req = upgradeRequest(3600).setNews(struct({ ...declared, timeoutMinutes: 1, version: "v1.31.2" }));
      const err = (await rejection(call(c, "update", req))) as grpc.ServiceError;
      expect(err.code).toBe(grpcStatus.DEADLINE_EXCEEDED);
      expect(err.details).toMatch(/^prod-cluster: timeoutMinutes \(1, per task\) ran out: Timed out after 1m waiting for task/);
      expect(err.details).not.toMatch(/customTimeouts/);
      expect(upgradePosts()).toHaveLength(1);
    } finally {
      c.close();
      served.plugin.close();
      served.server.forceShutdown();
    }
  });
});

async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !predicate(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!predicate()) throw new Error("condition not reached");
}
