/**
 * Conformance against answers written from public material nobody here wrote: every fixture in
 * fixtures/ (the platform's OpenAPI files, its Python SDK, the older Go SDK's test fixtures, its
 * guides) must read with our exported schema, and what comes out must carry the values sent.
 * Pure: no server.
 */
import { clusterPageSchema, clusterSchema, upgradeVersionsSchema } from "../../../../provider/api/cloud/k8s";
import { poolQuotaSchema } from "../../../../provider/api/cloud/k8sPoolQuota";
import { instancePageSchema } from "../../../../provider/api/cloud/instances";
import { regionPageSchema } from "../../../../provider/api/cloud/regions";
import { taskIdListSchema, taskSchema } from "../../../../provider/api/cloud/tasks";
import { delegationStatusSchema } from "../../../../provider/api/dns/analyze";
import { checkBody } from "../../../../provider/api/schema";
import { eventListSchema } from "../../../../provider/api/storage/notifications";
import { aiTaskPageSchema } from "../../../../provider/api/streaming/aiTasks";
import type { z } from "zod";
import { SCHEMA_BY_ANSWER, fixtureBody, fixtureFiles, loadFixture } from "./fixtureFiles";
import { isObject, without, withValue } from "./generate";

const files = fixtureFiles();

/** The parsed value of a body that must read; a refusal fails with the mismatch. */
function read(schema: z.ZodType, body: unknown): Record<string, unknown> {
  const r = checkBody(schema, body);
  if (!r.ok) throw new Error(`expected the body to read, got a mismatch at ${r.mismatch.field}: ${r.mismatch.problem}`);
  if (!isObject(r.value) && !Array.isArray(r.value)) throw new Error(`expected an object, got ${JSON.stringify(r.value)}`);
  return r.value as Record<string, unknown>;
}

/** Read a fixture with the schema of its answer type. */
function readFixture(file: string): Record<string, unknown> {
  const f = loadFixture(file);
  const s = SCHEMA_BY_ANSWER[f.answer];
  if (!s) throw new Error(`no schema for ${f.answer}`);
  return read(s.schema, f.body);
}

/** The mismatch of a body that must be refused. */
function refusal(schema: z.ZodType, body: unknown) {
  const r = checkBody(schema, body);
  if (r.ok) throw new Error(`expected a refusal, got ${JSON.stringify(r.value)}`);
  return r.mismatch;
}

/** The kinds (names) of the events a parsed event list holds, whatever its output shape (a flat list or a map by kind). */
function eventKinds(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((e) => (isObject(e) ? String(e["name"]) : "?"));
  if (isObject(value)) {
    return Object.entries(value).flatMap(([kind, list]) => (Array.isArray(list) ? list.map(() => kind) : []));
  }
  return [];
}

function eventsOf(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.filter(isObject);
  if (isObject(value)) return Object.values(value).flatMap((l) => (Array.isArray(l) ? l.filter(isObject) : []));
  return [];
}

describe("conformance fixtures", () => {
  test("there is a fixture for every answer type, and a schema for every fixture", () => {
    const answers = new Set(files.map((f) => loadFixture(f).answer));
    expect([...answers].sort()).toEqual(Object.keys(SCHEMA_BY_ANSWER).sort());
  });

  test.each(files)("%s names the public file it follows", (file) => {
    const f = loadFixture(file);
    expect(f.source).toMatch(/^(G-Core\/[\w.-]+@[0-9a-f]{7,}:\S+|the API reference, )/);
  });

  test.each(files)("%s reads with our schema", (file) => {
    expect(() => readFixture(file)).not.toThrow();
  });
});

describe("spot checks: tasks", () => {
  test("a NEW task (older Go SDK fixture) reads with nothing finished", () => {
    expect(readFixture("task.new.json")).toMatchObject({ id: "26986bc0-748a-4448-b836-0a2aa465eb06", state: "NEW", finishedOn: null, error: null });
  });
  test("FINISHED: integer project ids are kept, a per-key null reads as no resources of that kind", () => {
    const t = readFixture("task.finished.json");
    expect(t["state"]).toBe("FINISHED");
    expect(t["createdResources"]).toMatchObject({
      instances: ["169942e0-9b53-42df-95ef-1a8b6525c2bd"],
      projects: [5012],
      ddos_profiles: [29],
      floatingips: [],
      k8s_clusters: [],
    });
  });
  test("ERROR carries the quota text verbatim and no created resources", () => {
    expect(readFixture("task.error.json")).toMatchObject({ state: "ERROR", error: "Quota limit for volume_size exceeded by 20", createdResources: null });
  });
  test("an unknown task state is kept as text (a waiter reads it as not finished yet)", () => {
    const body = withValue(fixtureBody("task.running.json"), ["state"], "PAUSED");
    expect(read(taskSchema, body)["state"]).toBe("PAUSED");
  });
  test("a task without id or state is refused, naming the field", () => {
    expect(refusal(taskSchema, without(fixtureBody("task.running.json"), ["state"])).field).toContain("state");
    expect(refusal(taskSchema, withValue(fixtureBody("task.running.json"), ["id"], "")).field).toContain("id");
  });
  test("a write's task list needs at least one non-empty id", () => {
    expect(refusal(taskIdListSchema, { tasks: [] }).field).toContain("tasks");
    expect(refusal(taskIdListSchema, { tasks: [""] }).field).toContain("tasks");
    expect(readFixture("taskIdList.k8s-upgrade.json")).toMatchObject({ tasks: ["a73025eb-071a-400d-beb3-f6818428a99f"] });
  });
  test("the older Go SDK's task page reads", () => {
    expect(readFixture("taskPage.lcg.json")).toMatchObject({ count: 1, results: [{ id: "26986bc0-748a-4448-b836-0a2aa465eb06", taskType: "create_vm" }] });
  });
});

describe("spot checks: projects and regions", () => {
  test("projects keep the decision fields", () => {
    expect(readFixture("projectPage.openapi.json")).toMatchObject({
      count: 2,
      results: [
        { id: 1, name: "default", isDefault: true, state: "ACTIVE" },
        { id: 2, isDefault: false, state: "DELETED" },
      ],
    });
  });
  test("regions: any state is kept, a null zone and null volume types read as none", () => {
    const page = readFixture("regionPage.openapi.json");
    const failed = (page["results"] as Record<string, unknown>[])[2];
    expect(failed).toMatchObject({ id: 8, state: "DELETION_FAILED", zone: null, availableVolumeTypes: [] });
  });
  test("a region page without count (the spec's shape) reads", () => {
    const page = readFixture("regionPage.no-count.json");
    expect(page["results"]).toHaveLength(2);
    expect(page["count"] ?? null).toBeNull();
  });
  test("a region without a decision flag is refused, naming it", () => {
    const body = without(fixtureBody("regionPage.openapi.json"), ["results", 0, "has_k8s"]);
    expect(refusal(regionPageSchema, body).field).toBe("results[0].has_k8s");
  });
});

describe("spot checks: instances", () => {
  test("the older Go SDK's names instance_id / instance_name / instance_created arrive as id / name / createdAt", () => {
    expect(readFixture("instancePage.lcg.json")).toMatchObject({
      count: 1,
      results: [{ id: "a7e7e8d6-0bf7-4ac9-8170-831b47ee2ba9", name: "Testing", createdAt: "2019-07-11T06:58:48Z", status: "ACTIVE" }],
    });
  });
  test("an older name is read when the current one is null", () => {
    const body = withValue(fixtureBody("instancePage.lcg.json"), ["results", 0, "id"], null);
    expect(read(instancePageSchema, body)).toMatchObject({ results: [{ id: "a7e7e8d6-0bf7-4ac9-8170-831b47ee2ba9" }] });
  });
  test("the OpenAPI shape reads, a bare-metal server in BUILD included", () => {
    expect(readFixture("instancePage.openapi.json")).toMatchObject({
      count: 2,
      results: [
        { id: "6c6aa80f-7836-4dc2-a2ae-125e248be476", name: "my-instance-1", status: "ACTIVE", vmState: "active" },
        { id: "a7e7e8d6-0bf7-4ac9-8170-831b47ee2ba9", name: "bm-build-1", status: "BUILD", sshKeyName: null },
      ],
    });
  });
});

describe("spot checks: Kubernetes", () => {
  test("the lock: null = unlocked, a task id = locked, absent = unknown (undefined)", () => {
    expect(readFixture("cluster.lcg.json")["taskId"]).toBeNull();
    expect(readFixture("cluster.provisioning.json")).toMatchObject({ status: "Provisioning", taskId: "61ee06b0-4705-4616-bb19-245bc510a8d0" });
    const absent = read(clusterSchema, without(fixtureBody("cluster.lcg.json"), ["task_id"]));
    expect(absent["taskId"]).toBeUndefined();
    expect("taskId" in absent).toBe(true);
    expect(read(clusterSchema, withValue(fixtureBody("cluster.lcg.json"), ["task_id"], ""))["taskId"]).toBeUndefined();
  });
  test("the OpenAPI cluster reads with its version and pools", () => {
    expect(readFixture("cluster.openapi.json")).toMatchObject({ name: "test k8s", version: "v1.28.1", status: "Provisioned", isPublic: false, pools: [{ name: "test" }] });
  });
  test("a list is not refused for one cluster's version: kept as sent, an empty one as not reported", () => {
    const odd = withValue(fixtureBody("clusterPage.lcg.json"), ["results", 0, "version"], "1.26");
    expect(read(clusterPageSchema, odd)).toMatchObject({ results: [{ name: "cluster-1", version: "1.26" }] });
    const empty = withValue(fixtureBody("clusterPage.lcg.json"), ["results", 0, "version"], "");
    expect(read(clusterPageSchema, empty)).toMatchObject({ results: [{ version: null }] });
  });
  test("the guide's abridged list item (no pools, is_public, keypair) reads; pools as none", () => {
    expect(readFixture("clusterPage.gpu-doc.json")).toMatchObject({ count: 1, results: [{ name: "my-cluster", version: "v1.35.3", pools: [] }] });
  });
  test("upgrade versions: the guide's answer reads; a version not shaped v<maj>.<min>.<patch> is refused naming it", () => {
    expect(readFixture("upgradeVersions.doc.json")).toMatchObject({ results: [{ version: "v1.33.10" }] });
    expect(readFixture("upgradeVersions.none.json")).toMatchObject({ results: [] });
    expect(refusal(upgradeVersionsSchema, { count: 1, results: [{ version: "1.33.10" }] }).field).toBe("results[0].version");
    expect(refusal(upgradeVersionsSchema, { count: 1, results: [{ version: "v1.33" }] }).field).toBe("results[0].version");
    expect(refusal(upgradeVersionsSchema, { count: 1, results: [{ version: "v1.033.10" }] }).field).toBe("results[0].version");
    expect(read(upgradeVersionsSchema, { results: [{ version: "v1.33.10" }] })["results"]).toHaveLength(1);
  });
});

describe("spot checks: the pool quota check", () => {
  test("the OpenAPI's fields read as one exceeded quota each, sorted by name; the documented {} as none", () => {
    expect(readFixture("poolQuota.openapi.json")).toEqual({
      exceeded: [
        { quota: "cpu_count", limit: 10, usage: 5, requested: 20 },
        { quota: "ram", limit: 20480, usage: 10240, requested: 40960 },
        { quota: "vm_count", limit: 5, usage: 3, requested: 10 },
        { quota: "volume_count", limit: 5, usage: 3, requested: 10 },
        { quota: "volume_size", limit: 400, usage: 200, requested: 800 },
      ],
    });
    expect(readFixture("poolQuota.empty.json")).toEqual({ exceeded: [] });
  });
  test("a quota the public material does not list yet is read; a part not reported reads null; other keys are ignored", () => {
    const body = { gpu_virtual_b200_count_limit: 2, gpu_virtual_b200_count_requested: 4, region_id: 76, message: "ok" };
    expect(read(poolQuotaSchema, body)).toEqual({ exceeded: [{ quota: "gpu_virtual_b200_count", limit: 2, usage: null, requested: 4 }] });
  });
  test("a quota value that is not a whole number is refused naming its key", () => {
    expect(refusal(poolQuotaSchema, { vm_count_limit: "4", vm_count_usage: 3 }).field).toBe("vm_count_limit");
    expect(refusal(poolQuotaSchema, { ram_requested: 1.5 }).field).toBe("ram_requested");
    expect(refusal(poolQuotaSchema, []).field).toBe("(body)");
  });
});

describe("spot checks: storage notifications", () => {
  test("a full list yields every event, a uint64 limit beyond 2^53 included", () => {
    const list = eventListSchema.parse(fixtureBody("eventList.full.json"));
    expect(eventKinds(list).sort()).toEqual(["reaching_files_quantity", "reaching_used_requests", "reaching_used_space", "reaching_used_space", "reaching_used_traffic"]);
    expect(eventsOf(list).some((e) => e["bytes"] === 2 ** 64)).toBe(true);
  });
  test("a null event kind reads as no events of that kind", () => {
    const list = eventListSchema.parse(fixtureBody("eventList.null-kinds.json"));
    expect(eventKinds(list)).toEqual(["reaching_used_space"]);
  });
  test("items without uuid read (uuid as null)", () => {
    const events = eventsOf(eventListSchema.parse(fixtureBody("eventList.no-uuid.json")));
    expect(events).toHaveLength(2);
    for (const e of events) expect(e["uuid"] ?? null).toBeNull();
  });
  test("a body with none of the four kinds is refused, never read as no events; `{}` (EventsResponse requires no kind) reads as none", () => {
    expect(checkBody(eventListSchema, { error: "something else" }).ok).toBe(false);
    expect(checkBody(eventListSchema, {})).toEqual({ ok: true, value: [] });
  });
  test("a kind sent as null still counts as a known key: all four null read as no events", () => {
    const allNull = { reaching_used_space: null, reaching_files_quantity: null, reaching_used_traffic: null, reaching_used_requests: null };
    expect(eventKinds(eventListSchema.parse(allNull))).toEqual([]);
  });
  test("a malformed item is refused", () => {
    const body = withValue(fixtureBody("eventList.full.json"), ["reaching_used_space", 0, "bytes"], "500");
    expect(refusal(eventListSchema, body).field).toContain("bytes");
  });
  test("a created event reads with or without uuid", () => {
    expect(readFixture("createdEvent.openapi.json")).toMatchObject({ name: "reaching_used_space", uuid: "9b1c3d2e-4a5f-4e6d-8c7b-1a2b3c4d5e6f", bytes: 500 });
    expect(readFixture("createdEvent.count.json")).toMatchObject({ name: "reaching_files_quantity", count: 5, uuid: null });
  });
});

describe("spot checks: DNS delegation status", () => {
  test("the public gcore_* count names read as the spec's counts", () => {
    expect(readFixture("delegationStatus.openapi.json")).toMatchObject({ serviceAuthorizedCount: 2, nonServiceAuthorizedCount: 0, zoneExists: true, isWhitelabelDelegation: false });
  });
  test("the spec's names read too", () => {
    expect(readFixture("delegationStatus.spec-names.json")).toMatchObject({ serviceAuthorizedCount: 1, nonServiceAuthorizedCount: 1, isWhitelabelDelegation: true });
  });
  test("a name server with ipv6Addresses null has no IPv6 addresses", () => {
    expect(readFixture("delegationStatus.ipv6-null.json")).toMatchObject({ authoritativeNameServers: [{ name: "ns1.example-dns.net", ipv4Addresses: ["192.0.2.53"], ipv6Addresses: [] }] });
  });
  test("a body with none of its fields is refused, never read as an empty status; a field sent as null counts", () => {
    expect(checkBody(delegationStatusSchema, {}).ok).toBe(false);
    expect(checkBody(delegationStatusSchema, { error: "rate limit" }).ok).toBe(false);
    expect(read(delegationStatusSchema, { zone_exists: null })["zoneExists"]).toBeNull();
  });
  test("missing fields read as unknown (null), never as false or zero", () => {
    const s = readFixture("delegationStatus.sparse.json");
    expect(s).toMatchObject({ zoneExists: false, authoritativeNameServers: [] });
    expect(s["isWhitelabelDelegation"]).toBeNull();
    expect(s["serviceAuthorizedCount"]).toBeNull();
  });
});

describe("spot checks: account, AI tasks, reseller", () => {
  test("the guide's minimal /iam/clients/me answer reads", () => {
    expect(readFixture("currentClient.minimal.json")).toMatchObject({ id: 7350925, email: "user@example.com", status: "active", currentUser: 1023101 });
  });
  test("the full OpenAPI account reads, camelCase keys included", () => {
    expect(readFixture("currentClient.openapi.json")).toMatchObject({ id: 7350925, companyName: "Example Ltd", serviceStatuses: { CLOUD: { status: "active", enabled: true } } });
  });
  test("AI tasks, OpenAPI example: paging fields and records", () => {
    expect(readFixture("aiTaskPage.openapi.json")).toMatchObject({ count: 127, next: "page=2", results: [{ taskName: "content-moderation", status: "SUCCESS", progress: 100 }, { status: "STARTED" }] });
  });
  test("AI tasks: an empty task_name is read from task_data", () => {
    const body = withValue(fixtureBody("aiTaskPage.python-sdk.json"), ["results", 0, "task_name"], "");
    expect(read(aiTaskPageSchema, body)).toMatchObject({ results: [{ taskName: "transcription" }, {}] });
  });
  test("AI tasks: `next` null (last page) is kept apart from `next` not sent", () => {
    expect(readFixture("aiTaskPage.python-sdk.json")["next"]).toBeUndefined();
    expect(read(aiTaskPageSchema, withValue(fixtureBody("aiTaskPage.openapi.json"), ["next"], null))["next"]).toBeNull();
  });
  test("AI tasks, Python SDK shape: task_name from task_data, start time from processing_time, RECEIVED kept", () => {
    expect(readFixture("aiTaskPage.python-sdk.json")).toMatchObject({
      results: [
        { taskId: "aafe70c6-0000-0000-0000-d3bcebebf37c", taskName: "transcription", startedAt: "2026-05-23T05:07:31Z", status: "SUCCESS" },
        { taskName: "content-moderation", status: "RECEIVED" },
      ],
    });
  });
  test("reseller totals keep integer amounts; ping reads", () => {
    expect(readFixture("resellerTotals.openapi.json")).toMatchObject({ limit: 100, offset: 0, count: 3, results: [{ date: "2026-05-01", amount: 1204 }, { amount: 0 }, { amount: 98011 }] });
    expect(readFixture("ping.openapi.json")).toEqual({ message: "pong" });
  });
});
