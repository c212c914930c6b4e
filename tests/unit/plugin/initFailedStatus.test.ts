/**
 * Partial state through both adapters: a lifecycle's PartialResourceError becomes, on the plugin
 * path, a gRPC error whose `grpc-status-details-bin` holds `pulumirpc.ErrorResourceInitFailed`
 * (id, properties, reasons), and on the dynamic path an error carrying `id`, `properties` (with
 * the serialized provider, which the dynamic provider host does not add itself) and `reasons`,
 * the fields that host packs into the same detail. No API key in either.
 */
import * as provProto from "@pulumi/pulumi/proto/provider_pb";
import * as statusProto from "@pulumi/pulumi/proto/status_pb";
import { redact } from "../../../provider/api/redact";
import { toDynamicHandlers } from "../../../provider/dynamic/adapter";
import { initFailedStatus } from "../../../provider/plugin/initFailedStatus";
import type { LifecycleContext, ResourceLifecycle } from "../../../provider/resources/lifecycle";
import { PartialResourceError } from "../../../provider/resources/partial";
import { RunState } from "../../../provider/resources/runState";
import { newKey, rejectionOf } from "../api/helpers";

const KEY = newKey();

function partial(): PartialResourceError {
  return new PartialResourceError(`upgrade started, then the task read failed (key ${KEY})`, "1/76/demo", { version: "v1.30.4", taskIds: ["t-1"] }, [`GET /cloud/v1/tasks/t-1 returned 200 with an unexpected body (key ${KEY})`]);
}

describe("plugin: ErrorResourceInitFailed", () => {
  test("partial state becomes status UNKNOWN with the detail: id, properties, reasons; no key", () => {
    const status = initFailedStatus(partial(), (t) => redact(t, [KEY]));
    expect(status?.code).toBe(2);
    expect(status?.message).not.toContain(KEY);
    const bin = status?.metadata?.get("grpc-status-details-bin");
    expect(bin).toHaveLength(1);
    const decoded = statusProto.Status.deserializeBinary(new Uint8Array(bin?.[0] as Buffer));
    expect(decoded.getMessage()).toBe(status?.message);
    const any = decoded.getDetailsList()[0];
    expect(any?.getTypeName()).toBe("pulumirpc.ErrorResourceInitFailed");
    const detail = provProto.ErrorResourceInitFailed.deserializeBinary(any?.getValue_asU8() ?? new Uint8Array());
    expect(detail.getId()).toBe("1/76/demo");
    expect(detail.getProperties()?.toJavaScript()).toEqual({ version: "v1.30.4", taskIds: ["t-1"] });
    expect(detail.getReasonsList()).toHaveLength(1);
    expect(detail.getReasonsList()[0]).toContain("unexpected body");
    expect(detail.getReasonsList()[0]).not.toContain(KEY);
  });

  test("any other error is left to the plain error path", () => {
    expect(initFailedStatus(new Error("no"), (t) => t)).toBeUndefined();
  });
});

describe("dynamic: an error carrying id, properties (with __provider) and reasons", () => {
  const failing: ResourceLifecycle<Record<string, unknown>, Record<string, unknown>> = {
    typeName: "Thing",
    check: async (_ctx, news) => ({ inputs: news, failures: [] }),
    diff: async () => ({ changes: true }),
    create: async () => {
      throw partial();
    },
    read: async () => undefined,
    update: async () => {
      throw partial();
    },
    delete: async () => undefined,
  };
  const ctx: LifecycleContext = { client: () => { throw new Error("unused"); }, log: () => undefined, run: new RunState(), signal: new AbortController().signal };
  const handlers = toDynamicHandlers(failing, () => ctx, () => [KEY]);

  test.each(["create", "update"] as const)("%s: the fields the dynamic provider host packs, the serialized provider kept, no key", async (op) => {
    const raw = { version: "v1.31.2", __provider: "exports.handler = ..." };
    const err = await rejectionOf(op === "create" ? handlers.create(raw) : handlers.update("1/76/demo", raw, raw));
    expect(err).toBeInstanceOf(PartialResourceError);
    const e = err as PartialResourceError;
    expect(e.id).toBe("1/76/demo");
    expect(e.properties).toEqual({ version: "v1.30.4", taskIds: ["t-1"], __provider: "exports.handler = ..." });
    expect(e.reasons[0]).toContain("unexpected body");
    expect(JSON.stringify({ m: e.message, r: e.reasons, s: e.stack })).not.toContain(KEY);
  });
});
