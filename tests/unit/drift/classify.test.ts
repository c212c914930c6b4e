import { briefError, classify, maskSecrets } from "../../../provider/drift/classify";
import { quotaRefusal } from "../../../provider/resources/k8s/capacity";
import { diagnostic, refreshed, step, URN } from "./fixtures";

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "abc" };

test("no refresh change and no planned step: clean", () => {
  const same = { name: "reaching_used_space", bytes: 1000 };
  expect(classify([refreshed("space", same, same), step("same", "space", same, same)])).toEqual({ class: "clean", resources: [], refusals: [] });
});

test("a changed field and a deleted event: drift, state against live, with the declared value", () => {
  const state = { name: "reaching_used_space", bytes: 1000, uuid: "u1" };
  const result = classify([
    refreshed("space", state, { ...state, bytes: 7 }),
    refreshed("traffic", { name: "reaching_used_traffic", bytes: 2000 }, null),
    step("update", "space", { name: "reaching_used_space", bytes: 7 }, { name: "reaching_used_space", bytes: 1000 }),
    step("create", "traffic", null, { name: "reaching_used_traffic", bytes: 2000 }),
  ]);
  expect(result.class).toBe("drift");
  expect(result.resources).toEqual([
    { urn: URN("space"), type: expect.any(String), name: "space", live: "modified", plannedOp: "update", fields: [{ field: "bytes", state: 1000, live: 7, declared: 1000 }] },
    { urn: URN("traffic"), type: expect.any(String), name: "traffic", live: "deleted", plannedOp: "create", fields: [] },
  ]);
});

test("a declaration changed while live matches the state: pending, declared against state", () => {
  const old = { name: "reaching_used_space", bytes: 1000 };
  const result = classify([refreshed("space", old, old), step("update", "space", old, { ...old, bytes: 2000 })]);
  expect(result.class).toBe("drift");
  expect(result.resources[0]).toMatchObject({ live: "pending", plannedOp: "update", fields: [{ field: "bytes", state: 1000, live: 1000, declared: 2000 }] });
});

test("secrets show as [secret], also inside lists", () => {
  const result = classify([refreshed("space", { token: SECRET, bytes: 1 }, { token: { ...SECRET, ciphertext: "other" }, bytes: 2 })]);
  expect(result.resources[0]?.fields).toEqual([{ field: "bytes", state: 1, live: 2 }]);
  expect(maskSecrets({ a: [SECRET, 1] })).toEqual({ a: ["[secret]", 1] });
});

test("providers and the stack itself are never drift; __provider is never a field", () => {
  const provider = "pulumi:providers:cloudplatform";
  expect(classify([step("update", "default", { apiKey: "a" }, { apiKey: "b" }, provider), step("update", "s", {}, { x: 1 }, "pulumi:pulumi:Stack")]).class).toBe("clean");
});

test("an error diagnostic carrying a refusal code: drift-blocked, also when the preview failed", () => {
  const urn = URN("demo", "cloudplatform:index:K8sClusterUpgrade");
  const message = "resource 'demo': property version value {v1.30.4} has a problem: version v1.30.4 is a downgrade [CLOUDPLATFORM_DOWNGRADE]\n";
  const result = classify([diagnostic("error", message, urn)], "CommandError: exit 1");
  expect(result).toMatchObject({ class: "drift-blocked", refusals: [{ code: "CLOUDPLATFORM_DOWNGRADE", urn, message: message.trim() }] });
});

test("an upgrade the quota cannot hold: drift-blocked with CLOUDPLATFORM_QUOTA; the warning of a quota check that could not be made blocks nothing", () => {
  const urn = URN("staging", "cloudplatform:index:K8sClusterUpgrade");
  const refusal = quotaRefusal({ projectId: 2, regionId: 76, clusterName: "staging-cluster", version: "v1.30.4" }, { label: "pool-1", flavorId: "g1-standard-2-4", nodeCount: 3 }, [
    { quota: "vm_count", limit: 4, usage: 3, requested: 3 },
  ]);
  const pending = step("update", "staging", { version: "v1.29.8" }, { version: "v1.30.4" }, "cloudplatform:index:K8sClusterUpgrade");
  const blocked = classify([pending, diagnostic("error", `resource 'staging': property version value {v1.30.4} has a problem: ${refusal}\n`, urn)], "CommandError: exit 1");
  expect(blocked).toMatchObject({ class: "drift-blocked", refusals: [{ code: "CLOUDPLATFORM_QUOTA", urn }] });
  const warned = classify([pending, diagnostic("warning", "staging-cluster: the quota check for the upgrade could not be answered (POST ... 404); the upgrade goes on without it.", urn)]);
  expect(warned.class).toBe("drift");
});

test("an error without a code wins over a refusal: error, with the engine's message", () => {
  const result = classify([diagnostic("error", "x [CLOUDPLATFORM_DOWNGRADE]"), diagnostic("error", "GET /cloud failed (401)"), diagnostic("info#err", "stack trace")], "failed");
  expect(result.class).toBe("error");
  expect(result.error).toBe("GET /cloud failed (401)");
  expect(result.refusals).toHaveLength(1);
});

test.each([
  ["a CommandError's text (the Automation API, listing stacks)", "CommandError: code: 255\n stdout: \n stderr: error: no stack named 'nope' found\n", "no stack named 'nope' found"],
  ["the CLI's own output (a preview)", "Previewing update (nope):\n\nerror: no stack named 'nope' found\n", "no stack named 'nope' found"],
  ["two error lines, one repeated", "error: a\n  error: b\nerror: a\n", "a; b"],
])("a failure before any engine event is an error with the CLI's error lines: %s", (_, text, brief) => {
  expect(classify([], text)).toEqual({ class: "error", resources: [], refusals: [], error: brief });
});

test("a failure without error lines gives its last line", () => {
  expect(briefError("a\nlast line\n")).toBe("last line");
});
