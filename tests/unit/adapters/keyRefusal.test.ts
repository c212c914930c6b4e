/**
 * A refused API key (401, 403) says which key the operation used and what to do, on both
 * adapters: on the plugin, a read or delete configured from the state alone (no `CheckConfig`
 * before `Configure`, as `pulumi refresh` and `pulumi destroy` do) names the key saved at the
 * last `pulumi up` and sends the user to `pulumi refresh --run-program` or `pulumi up`; one that
 * follows the program's config, and every check, create and update, names the current config;
 * on the dynamic path a read or delete says "unless it ran with --run-program". A key from the
 * environment is named as such. The client's own advice ("set it with the Pulumi config") is
 * replaced, not repeated, and the key is never printed. The dynamic host's console copy of an
 * error this package handed it (message twice and the stack trace) is left out.
 */
import type * as grpc from "@grpc/grpc-js";
import * as provProto from "@pulumi/pulumi/proto/provider_pb";
import type * as provRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { createClient } from "../../../provider/api";
import { AuthenticationError, PermissionDeniedError } from "../../../provider/api/errors";
import { explainKeyRefusal, keyAdvice } from "../../../provider/adapters/keyRefusal";
import { toDynamicHandlers } from "../../../provider/dynamic/adapter";
import { handOver, withoutHandedErrors } from "../../../provider/dynamic/hostErrors";
import { serve } from "../../../provider/plugin/server";
import { createK8sClusterUpgradeLifecycle } from "../../../provider/resources/k8sClusterUpgrade";
import { PresenceUnclearError } from "../../../provider/resources/absence";
import { storageEvent } from "../../../provider/resources/storageEvent";
import { startSimulator, type RunningSimulator } from "../../../simulator";
import { newKey } from "../api/helpers";
import { call, providerClient, secret, struct } from "../plugin/grpcClient";
import { contextOf, quickRun } from "../resources/context";

const SAVED = "This command used the API key saved in the stack's state at its last `pulumi up`, not the current config";
const UNLESS = "Unless this command ran with `--run-program`, it used the API key saved in the stack's state at its last `pulumi up`";
const CURRENT = "This command used the key of the current Pulumi config `cloudplatform:apiKey`";
const ENVIRONMENT = "This command used the key of the environment variable CLOUDPLATFORM_API_KEY (the stack's config sets none)";
const WAY_OUT = "run `pulumi refresh --run-program` (it reads with the current config; `pulumi destroy --run-program` deletes with it) or `pulumi up`";
const CLIENT_HINT = "set it with the Pulumi config";
const SE = "cloudplatform:index:StorageEvent";
const K8S = "cloudplatform:index:K8sClusterUpgrade";
const EVENT = { name: "reaching_used_space", storageName: "keys", bytes: 5 };

let sim: RunningSimulator;
const OLD_KEY = newKey();
let eventUuid = "";

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey() });
  const made = await createClient({ baseUrl: sim.url, apiKey: sim.apiKey }).storage.notifications.create(EVENT);
  eventUuid = String(made.uuid);
});
afterAll(async () => sim.close());

describe("the advice", () => {
  test.each([
    { denied: false, use: "saved", origin: "config", says: ["The API key is missing or invalid.", SAVED, WAY_OUT, "; if not, set a valid one with"] },
    { denied: true, use: "saved", origin: "config", says: ["The API key is valid but lacks permission for this operation.", SAVED, WAY_OUT, "; if not, use a key whose role allows it"] },
    { denied: false, use: "savedUnlessRunProgram", origin: "config", says: [UNLESS, WAY_OUT, "(or it ran with `--run-program`, which uses the current config)"] },
    { denied: false, use: "current", origin: "config", says: [CURRENT, "set a valid one with `pulumi config set --secret cloudplatform:apiKey ...`"] },
    { denied: false, use: "saved", origin: "environment", says: [ENVIRONMENT, "set a valid one in the environment variable CLOUDPLATFORM_API_KEY"] },
  ] as const)("denied $denied, $use key from $origin", ({ denied, use, origin, says }) => {
    const advice = keyAdvice(denied, use, origin);
    for (const part of says) expect(advice).toContain(part);
    if (use === "current" || origin === "environment") expect(advice).not.toContain("--run-program");
  });

  test("an error without a refused key is left as it is; one wrapping a refusal gets the advice in place of the client's hint", () => {
    const other = new Error("GET /x failed (500 ServerError)");
    expect(explainKeyRefusal(other, "saved", "config")).toBe(other);
    const refusal = new AuthenticationError({ method: "GET", path: "/storage/notifications/v1/events", status: 401, serverMessage: "Auth token is invalid", mayHaveActed: false });
    const unclear = new PresenceUnclearError("storage event X", "the resource stays in the stack as recorded", `the list could not be read: ${refusal.message}`, refusal);
    expect(unclear.message).toMatch(/^Nothing was concluded about storage event X: the API refused the key \(the list could not be read: GET /);
    expect(unclear.message).not.toContain("Cannot tell whether");
    expect(unclear.message).not.toContain("Run the command again once the API answers normally");
    const explained = explainKeyRefusal(unclear, "saved", "config") as Error;
    expect(explained).toBeInstanceOf(PresenceUnclearError);
    expect(explained.message.startsWith(`${keyAdvice(false, "saved", "config")} Nothing was concluded about storage event X`)).toBe(true);
    expect(explained.message).not.toContain("set it with");
    expect(explained.cause).toBe(unclear);
  });

  test("the advice leads with what to do, before which key it was", () => {
    const advice = keyAdvice(false, "saved", "config");
    expect(advice.indexOf(WAY_OUT)).toBeLessThan(advice.indexOf(SAVED));
    expect(advice).toMatch(/^The API key is missing or invalid\. If you have set a new key since the last `pulumi up`, run /);
  });

  test.each([
    { denied: false, brief: "The API key is missing or invalid (what to do is in the error of the first resource this run refused)." },
    { denied: true, brief: "The API key lacks permission for this operation (what to do is in the error of the first resource this run refused)." },
  ])("within one run the same advice is given in full once, then briefly (denied $denied)", ({ denied, brief }) => {
    const Refusal = denied ? PermissionDeniedError : AuthenticationError;
    const refusal = () => new Refusal({ method: "GET", path: "/storage/notifications/v1/events", status: denied ? 403 : 401, serverMessage: "no", mayHaveActed: false });
    const given = quickRun().keyAdviceGiven;
    const [first, second] = [refusal(), refusal()].map((err) => (explainKeyRefusal(err, "saved", "config", given) as Error).message);
    expect(first?.startsWith(keyAdvice(denied, "saved", "config"))).toBe(true);
    expect(second?.startsWith(brief)).toBe(true);
    expect(second).toContain("GET /storage/notifications/v1/events failed");
    expect(second).not.toContain(SAVED);
    // Other advice (another key use) is given in full again.
    expect((explainKeyRefusal(refusal(), "current", "config", given) as Error).message).toContain(CURRENT);
  });
});

describe("the plugin", () => {
  let client: provRpc.ResourceProviderClient;
  let server: grpc.Server;
  let close: () => void;
  beforeAll(async () => {
    const served = await serve({ env: { CLOUDPLATFORM_API_KEY: OLD_KEY }, runOptions: { writeTiming: { settleMs: 20, requestTimeoutMs: 1_500, inFlightMarginMs: 50 } } });
    server = served.server;
    close = () => served.plugin.close();
    client = providerClient(served.port);
  });
  afterAll(() => {
    client.close();
    close();
    server.forceShutdown();
  });

  const urn = (type: string) => `urn:pulumi:dev::proj::${type}::r`;
  const config = (key: string | undefined) => ({ ...(key !== undefined ? { apiKey: secret(key) } : {}), baseUrl: sim.url });
  const message = (p: Promise<unknown>) => p.then(() => "", (err: Error) => err.message);
  const checkConfig = (key: string) => call(client, "checkConfig", new provProto.CheckRequest().setNews(struct({ apiKey: key, baseUrl: sim.url })));
  const configure = (key: string | undefined) => call(client, "configure", new provProto.ConfigureRequest().setArgs(struct(config(key))).setAcceptsecrets(true));
  const operations = {
    read: () => call(client, "read", new provProto.ReadRequest().setUrn(urn(SE)).setType(SE).setId(eventUuid).setProperties(struct({ ...EVENT, uuid: eventUuid })).setInputs(struct({}))),
    delete: () => call(client, "delete", new provProto.DeleteRequest().setUrn(urn(SE)).setType(SE).setId(eventUuid).setProperties(struct({ ...EVENT, uuid: eventUuid }))),
    check: () =>
      call(client, "check", new provProto.CheckRequest().setUrn(urn(K8S)).setType(K8S).setNews(struct({ projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2" })).setOlds(struct({}))),
  };

  test.each([
    { name: "a read configured from the state (refresh)", checked: false, key: OLD_KEY, op: "read", says: SAVED },
    { name: "a delete configured from the state (destroy)", checked: false, key: OLD_KEY, op: "delete", says: SAVED },
    { name: "a read after the program's config was checked (refresh --run-program)", checked: true, key: OLD_KEY, op: "read", says: CURRENT },
    { name: "a check (preview, up)", checked: false, key: OLD_KEY, op: "check", says: CURRENT },
    { name: "a read with the key of the environment", checked: false, key: undefined, op: "read", says: ENVIRONMENT },
    { name: "a delete with a read-only key saved in the state", checked: false, key: "readOnly", op: "delete", says: SAVED },
  ] as const)("$name: names that key and what to do, once, without the key", async ({ checked, key, op, says }) => {
    const used = key === "readOnly" ? sim.readOnlyApiKey : key;
    if (checked && used) await checkConfig(used);
    await configure(used);
    const text = await message(operations[op]());
    expect(text).toContain(says);
    expect(text).toContain(key === "readOnly" ? "lacks permission" : "401 AuthenticationError");
    expect(text).not.toContain(CLIENT_HINT);
    expect(text.split(says)).toHaveLength(2);
    expect(text).not.toContain(OLD_KEY);
    expect(text).not.toContain(sim.readOnlyApiKey);
  });

  test("a second refused read under the same Configure is brief; a new Configure (another run) says it all again", async () => {
    await configure(OLD_KEY);
    const [first, second] = [await message(operations.read()), await message(operations.read())];
    expect(first).toContain(SAVED);
    expect(second).toMatch(/^16 UNAUTHENTICATED: The API key is missing or invalid \(what to do is in the error of the first resource this run refused\)\. Nothing was concluded/);
    expect(second).not.toContain(SAVED);
    await configure(OLD_KEY);
    expect(await message(operations.read())).toContain(SAVED);
  });
});

describe("the dynamic provider", () => {
  const handlersWith = (lifecycle: Parameters<typeof toDynamicHandlers>[0]) =>
    toDynamicHandlers(lifecycle, () => contextOf(createClient({ baseUrl: sim.url, apiKey: OLD_KEY })), () => [OLD_KEY], () => "config");

  test.each([
    { op: "read", says: UNLESS, run: () => handlersWith(storageEvent).read(eventUuid, { ...EVENT, uuid: eventUuid }) },
    { op: "delete", says: UNLESS, run: () => handlersWith(storageEvent).delete(eventUuid, { ...EVENT, uuid: eventUuid }) },
    { op: "check", says: CURRENT, run: () => handlersWith(createK8sClusterUpgradeLifecycle()).check({}, { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2" }) },
  ])("a refused $op names its key and what to do, in place of the client's hint", async ({ says, run }) => {
    const text = await run().then(() => "", (err: Error) => err.message);
    expect(text).toContain(says);
    expect(text).not.toContain(CLIENT_HINT);
    expect(text).not.toContain(OLD_KEY);
  });

  test("within one run, a second refusal is brief", async () => {
    const run = quickRun();
    const handlers = toDynamicHandlers(storageEvent, () => contextOf(createClient({ baseUrl: sim.url, apiKey: OLD_KEY }), undefined, run), () => [OLD_KEY], () => "config");
    const read = () => handlers.read(eventUuid, { ...EVENT, uuid: eventUuid }).then(() => "", (err: Error) => err.message);
    const [first, second] = [await read(), await read()];
    expect(first).toContain(UNLESS);
    expect(second).toMatch(/^The API key is missing or invalid \(what to do is in the error of the first resource this run refused\)/);
  });

  test("the host's console copy of an error handed to it is left out; any other line is printed", () => {
    const printed: unknown[][] = [];
    const print = withoutHandedErrors((...args: unknown[]) => void printed.push(args));
    const err = handOver(new Error("refused")) as Error;
    print(`${err}: ${err.stack}`);
    print(`${err}: ${err.stack}`);
    print("something else");
    // The host's copy is left out once: a second copy of the same error and anything else are printed.
    expect(printed.map((a) => String(a[0]).split("\n")[0])).toEqual(["Error: refused: Error: refused", "something else"]);
  });
});
