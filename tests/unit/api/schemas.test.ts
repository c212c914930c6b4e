/**
 * The response schemas on their own: what each requires (the fields the spec or the OpenAPI
 * requires and a decision of ours depends on: the strict core), what it leaves open (the
 * tolerant reader: absent or null reads as null or [], unknown fields are ignored, unknown enum
 * values are kept as text), and how a mismatch is named. Pure: no server.
 */
import { clusterPageSchema, clusterSchema, upgradeVersionsSchema } from "../../../provider/api/cloud/k8s";
import { instanceSchema } from "../../../provider/api/cloud/instances";
import { projectPageSchema } from "../../../provider/api/cloud/projects";
import { taskIdListSchema, taskSchema } from "../../../provider/api/cloud/tasks";
import { delegationStatusSchema } from "../../../provider/api/dns/analyze";
import { checkBody, fieldName } from "../../../provider/api/schema";
import { answeredWithoutKinds, createdEventSchema, eventListSchema } from "../../../provider/api/storage/notifications";
import { aiTaskPageSchema } from "../../../provider/api/streaming/aiTasks";
import { consumptionPageSchema } from "../../../provider/api/waap/reseller";
import { iterateNumberedPages, PaginationLimitError, fetchAllOffset } from "../../../provider/api";

const mismatch = (schema: Parameters<typeof checkBody>[0], body: unknown) => {
  const r = checkBody(schema, body);
  if (r.ok) throw new Error(`expected a mismatch, got ${JSON.stringify(r.value)}`);
  return r.mismatch;
};

const cluster = { id: "c-1", name: "prod", version: "v1.30.4", status: "Provisioned", is_public: false, pools: [] };
const allEventKeys = { reaching_used_space: [], reaching_files_quantity: [], reaching_used_traffic: [], reaching_used_requests: [] };

describe("tasks", () => {
  test("a task reads into camelCase with open fields as null", () => {
    const r = checkBody(taskSchema, { id: "t-1", task_type: "upgrade_k8s_cluster", state: "RUNNING" });
    expect(r).toEqual({
      ok: true,
      value: expect.objectContaining({ id: "t-1", taskType: "upgrade_k8s_cluster", state: "RUNNING", error: null, createdResources: null, projectId: null }),
    });
  });
  test("a task without a state (missing, null or empty) is malformed: the waiter stops on it", () => {
    expect(mismatch(taskSchema, { id: "t-1", task_type: "x" })).toMatchObject({ field: "state", problem: "required string is missing" });
    expect(mismatch(taskSchema, { id: "t-1", task_type: "x", state: null })).toMatchObject({ field: "state", problem: "expected string, got null", value: null });
    expect(mismatch(taskSchema, { id: "t-1", task_type: "x", state: "" })).toMatchObject({ field: "state", value: "" });
    expect(mismatch(taskSchema, { id: "t-1", task_type: "x", state: 3 })).toMatchObject({ field: "state", problem: "expected string, got number" });
    expect(mismatch(taskSchema, { task_type: "x", state: "RUNNING" })).toMatchObject({ field: "id" });
  });
  test("a state the spec does not name is kept as text (the waiter reads it as 'not finished yet')", () => {
    expect(checkBody(taskSchema, { id: "t-1", task_type: "x", state: "DONE" })).toMatchObject({ ok: true, value: { id: "t-1", state: "DONE" } });
    expect(checkBody(taskSchema, { id: "t-1", state: "QUEUED" })).toMatchObject({ ok: true, value: { state: "QUEUED" } });
  });
  test("the task type is open: absent reads as null", () => {
    expect(checkBody(taskSchema, { id: "t-1", state: "RUNNING" })).toMatchObject({ ok: true, value: { taskType: null } });
    expect(mismatch(taskSchema, { id: "t-1", state: "RUNNING", task_type: 7 }).field).toBe("task_type");
  });
  test("created resources may hold integer ids (projects), a null list reads as none, other things are refused", () => {
    expect(checkBody(taskSchema, { id: "t", task_type: "x", state: "FINISHED", created_resources: { projects: [5], instances: ["i"] } })).toMatchObject({
      ok: true,
      value: { createdResources: { projects: [5], instances: ["i"] } },
    });
    expect(checkBody(taskSchema, { id: "t", state: "FINISHED", created_resources: { instances: null, volumes: ["v"] } })).toMatchObject({
      ok: true,
      value: { createdResources: { instances: [], volumes: ["v"] } },
    });
    expect(mismatch(taskSchema, { id: "t", task_type: "x", state: "FINISHED", created_resources: { instances: [null] } }).field).toBe("created_resources.instances[0]");
    expect(mismatch(taskSchema, { id: "t", state: "FINISHED", created_resources: { instances: "i" } }).field).toBe("created_resources.instances");
  });
  test("a write's task list needs at least one id", () => {
    expect(mismatch(taskIdListSchema, { tasks: [] }).field).toBe("tasks");
    expect(mismatch(taskIdListSchema, { tasks: [""] }).field).toBe("tasks[0]");
  });
});

describe("clusters", () => {
  test("only the name is required; version and status are kept as sent (the upgrade checks its own cluster's)", () => {
    expect(checkBody(clusterSchema, cluster)).toMatchObject({ ok: true, value: { version: "v1.30.4", status: "Provisioned" } });
    expect(checkBody(clusterSchema, { ...cluster, version: "1.30" })).toMatchObject({ ok: true, value: { version: "1.30" } });
    expect(checkBody(clusterSchema, { name: "prod" })).toMatchObject({ ok: true, value: { name: "prod", id: null, version: null, status: null, isPublic: null, pools: [] } });
    expect(checkBody(clusterSchema, { ...cluster, pools: null })).toMatchObject({ ok: true, value: { pools: [] } });
    expect(mismatch(clusterSchema, { ...cluster, name: "" }).field).toBe("name");
    const { name: _n, ...noName } = cluster;
    expect(mismatch(clusterSchema, noName)).toMatchObject({ field: "name", problem: "required string is missing" });
    // A field that is sent must still have its type.
    expect(mismatch(clusterSchema, { ...cluster, version: 1.3 })).toMatchObject({ field: "version", problem: "expected string, got number" });
    expect(mismatch(clusterSchema, { ...cluster, is_public: "no" }).field).toBe("is_public");
  });
  test("a cluster without a version (still provisioning) does not break a list of clusters", () => {
    const provisioning = { id: "c-2", name: "new", status: "Provisioning", pools: [] };
    expect(checkBody(clusterPageSchema, { count: 2, results: [cluster, provisioning] })).toMatchObject({
      ok: true,
      value: { count: 2, results: [{ name: "prod", version: "v1.30.4" }, { name: "new", version: null }] },
    });
  });
  test("the lock task_id keeps three states: an id (locked), null (unlocked), absent or empty (unknown)", () => {
    const read = (body: unknown) => {
      const r = checkBody(clusterSchema, body);
      if (!r.ok) throw new Error(JSON.stringify(r.mismatch));
      return r.value;
    };
    expect(read({ ...cluster, task_id: "t-9" }).taskId).toBe("t-9");
    expect(read({ ...cluster, task_id: null }).taskId).toBeNull();
    expect(read(cluster).taskId).toBeUndefined();
    expect(read({ ...cluster, task_id: "" }).taskId).toBeUndefined();
  });
  test("upgrade versions: each version is required and shaped, the count may be left out", () => {
    expect(checkBody(upgradeVersionsSchema, { results: [{ version: "v1.31.0" }] })).toEqual({ ok: true, value: { count: null, results: [{ version: "v1.31.0" }] } });
    expect(checkBody(upgradeVersionsSchema, { count: 0, results: [] })).toEqual({ ok: true, value: { count: 0, results: [] } });
    expect(mismatch(upgradeVersionsSchema, { count: 1, results: [{}] }).field).toBe("results[0].version");
    expect(mismatch(upgradeVersionsSchema, { results: [{ version: "v1.31.0" }, { version: "1.32" }] })).toMatchObject({
      field: "results[1].version",
      problem: expect.stringContaining("v<major>.<minor>.<patch>"),
    });
    expect(mismatch(upgradeVersionsSchema, { results: [{ version: "v01.31.0" }] }).field).toBe("results[0].version");
    expect(mismatch(upgradeVersionsSchema, { count: 1 }).field).toBe("results");
  });
});

describe("storage events", () => {
  test("the list flattens the four keyed arrays, the name from the key", () => {
    const r = checkBody(eventListSchema, { ...allEventKeys, reaching_used_space: [{ uuid: "u-1", storage_name: "media", bytes: 5 }] });
    expect(r).toEqual({
      ok: true,
      value: [{ name: "reaching_used_space", uuid: "u-1", storageName: "media", bucketName: null, bytes: 5, count: null, clientId: null }],
    });
  });
  test("a body with none of the four kinds but something else never reads as 'no events'", () => {
    for (const body of [{ weird: 1 }, { detail: "not found" }, [], null, "events"]) {
      expect(mismatch(eventListSchema, body)).toMatchObject({ field: "(body)", problem: expect.stringContaining("none is there") });
    }
  });
  test("`{}` (an account without events may answer it: the OpenAPI requires no kind) reads as no events, marked as such", () => {
    const read = checkBody(eventListSchema, {});
    expect(read).toEqual({ ok: true, value: [] });
    expect(read.ok && answeredWithoutKinds(read.value)).toBe(true);
    const withKinds = checkBody(eventListSchema, { reaching_used_space: null });
    expect(withKinds.ok && answeredWithoutKinds(withKinds.value)).toBe(false);
  });
  test("a kind left out or sent as null (a Go server's empty slice) reads as no events of that kind", () => {
    const { reaching_used_requests: _r, ...three } = allEventKeys;
    expect(checkBody(eventListSchema, three)).toEqual({ ok: true, value: [] });
    expect(checkBody(eventListSchema, { reaching_used_space: [{ uuid: "u-1" }] })).toMatchObject({ ok: true, value: [{ name: "reaching_used_space", uuid: "u-1" }] });
    expect(checkBody(eventListSchema, { reaching_used_space: null, reaching_files_quantity: null, reaching_used_traffic: null, reaching_used_requests: null })).toEqual({
      ok: true,
      value: [],
    });
  });
  test("a listed event without uuid, name or client parses, with them null; the kind comes from its key", () => {
    expect(checkBody(eventListSchema, { ...allEventKeys, reaching_files_quantity: [{ storage_name: "m", count: 5, name: "something_else" }] })).toEqual({
      ok: true,
      value: [{ name: "reaching_files_quantity", uuid: null, storageName: "m", bucketName: null, bytes: null, count: 5, clientId: null }],
    });
  });
  test("unknown keys are ignored; a malformed item or kind is a malformed list, never a missing event", () => {
    expect(checkBody(eventListSchema, { ...allEventKeys, weird: 1, reaching_new_thing: [{ uuid: "u-9" }] })).toEqual({ ok: true, value: [] });
    expect(mismatch(eventListSchema, { ...allEventKeys, reaching_used_space: [5] }).field).toBe("reaching_used_space[0]");
    expect(mismatch(eventListSchema, { ...allEventKeys, reaching_used_space: [{ uuid: 5 }] }).field).toBe("reaching_used_space[0].uuid");
    expect(mismatch(eventListSchema, { ...allEventKeys, reaching_used_space: [{ uuid: "u", client_id: "7" }] }).field).toBe("reaching_used_space[0].client_id");
    expect(mismatch(eventListSchema, { ...allEventKeys, reaching_used_space: [{ uuid: "u", bytes: -1 }] }).field).toBe("reaching_used_space[0].bytes");
    expect(mismatch(eventListSchema, { ...allEventKeys, reaching_used_traffic: { uuid: "u" } }).field).toBe("reaching_used_traffic");
  });
  test("a created event needs its name; its uuid may be left out (the lifecycle then looks it up)", () => {
    expect(checkBody(createdEventSchema, { name: "reaching_used_space" })).toMatchObject({ ok: true, value: { uuid: null } });
    expect(mismatch(createdEventSchema, { uuid: "u-1" }).field).toBe("name");
    expect(mismatch(createdEventSchema, { name: "reaching_used_space", bytes: -1 }).field).toBe("bytes");
    expect(mismatch(createdEventSchema, { name: "reaching_used_space", bytes: 1.5 }).field).toBe("bytes");
  });
  test("a limit past 2^53 (the spec's uint64) is a real answer, not a malformed one", () => {
    expect(checkBody(createdEventSchema, { name: "reaching_used_space", bytes: 2 ** 64 })).toMatchObject({ ok: true, value: { bytes: 2 ** 64 } });
  });
});

describe("the other answers", () => {
  test("projects: ids and names are required, never 0 and ''", () => {
    expect(mismatch(projectPageSchema, { count: 1, results: [{ name: "p", is_default: true, state: "ACTIVE" }] }).field).toBe("results[0].id");
    expect(mismatch(projectPageSchema, { count: 1, results: [{ id: 1, name: "", is_default: true, state: "ACTIVE" }] }).field).toBe("results[0].name");
    expect(mismatch(projectPageSchema, { count: "1", results: [] })).toMatchObject({ field: "count", problem: "expected number, got string" });
  });
  test("instances: a name is required and never '' (lookups find and name instances by it)", () => {
    const instance = { id: "i-1", name: "web-1", status: "ACTIVE", vm_state: "active" };
    expect(checkBody(instanceSchema, instance).ok).toBe(true);
    expect(mismatch(instanceSchema, { ...instance, name: "" }).field).toBe("name");
  });
  test("instances: the older names instance_id, instance_name and instance_created are read in place of the current ones", () => {
    expect(checkBody(instanceSchema, { instance_id: "i-1", instance_name: "web-1", instance_created: "2026-01-01T00:00:00Z" })).toMatchObject({
      ok: true,
      value: { id: "i-1", name: "web-1", createdAt: "2026-01-01T00:00:00Z", status: null, vmState: null },
    });
    // The current name wins where both are sent.
    expect(checkBody(instanceSchema, { id: "i-1", instance_id: "old", name: "web-1" })).toMatchObject({ ok: true, value: { id: "i-1" } });
    // A current name sent as null does not hide the older one.
    expect(checkBody(instanceSchema, { id: null, instance_id: "i-2", name: "web-2" })).toMatchObject({ ok: true, value: { id: "i-2" } });
    expect(mismatch(instanceSchema, { instance_id: "i-1" })).toMatchObject({ field: "name", problem: "required string is missing" });
  });
  test("delegation: the spec's fields, the public platform's count names accepted", () => {
    const good = {
      authoritative_name_servers: [{ name: "ns1", ipv4Addresses: [], ipv6Addresses: [] }],
      gcore_authorized_count: 1,
      non_gcore_authorized_count: 0,
      is_whitelabel_delegation: false,
      zone_exists: true,
    };
    expect(checkBody(delegationStatusSchema, good)).toMatchObject({ ok: true, value: { serviceAuthorizedCount: 1, nonServiceAuthorizedCount: 0, isWhitelabelDelegation: false, zoneExists: true } });
  });
  test("delegation: every field is open, and one not reported reads as null, never as false or 0", () => {
    expect(checkBody(delegationStatusSchema, { zone_exists: true })).toEqual({
      ok: true,
      value: { authoritativeNameServers: [], serviceAuthorizedCount: null, nonServiceAuthorizedCount: null, isWhitelabelDelegation: null, zoneExists: true },
    });
    expect(checkBody(delegationStatusSchema, { authoritative_name_servers: null, zone_exists: null, gcore_authorized_count: null })).toMatchObject({
      ok: true,
      value: { authoritativeNameServers: [], zoneExists: null, serviceAuthorizedCount: null },
    });
    expect(checkBody(delegationStatusSchema, { authoritative_name_servers: [{ ipv4_addresses: ["192.0.2.1"], ipv6Addresses: null }] })).toMatchObject({
      ok: true,
      value: { authoritativeNameServers: [{ name: null, ipv4Addresses: ["192.0.2.1"], ipv6Addresses: [] }] },
    });
    expect(mismatch(delegationStatusSchema, { zone_exists: "yes" }).field).toBe("zone_exists");
    expect(mismatch(delegationStatusSchema, { gcore_authorized_count: -1 }).field).toBe("service_authorized_count");
  });
  test("delegation: a body with none of its fields (an empty or foreign object) is not a delegation status", () => {
    for (const body of [{}, { weird: 1 }, { message: "ok" }, [], null]) {
      expect(mismatch(delegationStatusSchema, body)).toMatchObject({ field: "(body)", problem: expect.stringContaining("none is there") });
    }
  });
  test("reseller rows need a date and an amount, a whole number (OpenAPI and Python SDK: integer)", () => {
    expect(mismatch(consumptionPageSchema, { limit: 100, offset: 0, count: 1, results: [{ date: "2026-09-01" }] }).field).toBe("results[0].amount");
    expect(mismatch(consumptionPageSchema, { results: [{ date: "2026-09-01", amount: 1.5 }] })).toMatchObject({ field: "results[0].amount", problem: expect.stringContaining("integer") });
    expect(checkBody(consumptionPageSchema, { results: [{ date: "2026-09-01", amount: 2 ** 60 }] }).ok).toBe(true);
  });
  test("the reseller page's limit, offset and count are read when sent, null when not (no decision reads them)", () => {
    expect(checkBody(consumptionPageSchema, { results: [] })).toEqual({ ok: true, value: { limit: null, offset: null, count: null, results: [] } });
    expect(checkBody(consumptionPageSchema, { limit: 100, offset: 0, count: 0, results: [] })).toEqual({ ok: true, value: { limit: 100, offset: 0, count: 0, results: [] } });
    expect(mismatch(consumptionPageSchema, { limit: "100", results: [] }).field).toBe("limit");
  });
  test("an AI task page needs only its results; a `next` not sent stays apart from `next: null` (the last page)", () => {
    expect(checkBody(aiTaskPageSchema, { results: [] })).toMatchObject({ ok: true, value: { count: null, next: undefined, results: [] } });
    const notSent = checkBody(aiTaskPageSchema, { count: 3, results: [] });
    expect(notSent.ok && notSent.value.next).toBeUndefined();
    const last = checkBody(aiTaskPageSchema, { count: 3, next: null, results: [] });
    expect(last.ok && last.value.next).toBeNull();
    expect(mismatch(aiTaskPageSchema, { count: 0, next: null }).field).toBe("results");
    expect(mismatch(aiTaskPageSchema, { next: 2, results: [] }).field).toBe("next");
  });
  test("an AI task needs its id; its kind and start time are read where the platform put them", () => {
    expect(checkBody(aiTaskPageSchema, { results: [{ task_id: "a", task_data: { task_name: "transcription" }, processing_time: { started_at: "2026-01-01" } }] })).toMatchObject({
      ok: true,
      value: { results: [{ taskId: "a", taskName: "transcription", status: null, startedAt: "2026-01-01" }] },
    });
    expect(mismatch(aiTaskPageSchema, { results: [{ status: "SUCCESS" }] }).field).toBe("results[0].task_id");
  });
  test("field names read like paths", () => {
    expect(fieldName([])).toBe("(body)");
    expect(fieldName(["results", 0, "version"])).toBe("results[0].version");
  });
});

describe("paging caps", () => {
  test("numbered paging that never ends stops at maxPages with a clear error", async () => {
    let fetched = 0;
    const endless = async (page: number) => {
      fetched++;
      return { count: 1e9, next: `page=${page + 1}`, previous: null, results: [page] };
    };
    const seen: number[] = [];
    const err = await (async () => {
      try {
        for await (const item of iterateNumberedPages(endless, { maxPages: 5, what: "GET /streaming/ai/tasks" })) seen.push(item);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(PaginationLimitError);
    expect((err as Error).message).toContain("GET /streaming/ai/tasks still announced a next page after 5 pages (maxPages)");
    expect(fetched).toBe(5);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });
  test("offset paging has the same cap", async () => {
    const full = async (p: { limit: number; offset: number }) => ({ count: 1e9, results: Array.from({ length: p.limit }, (_, i) => p.offset + i) });
    await expect(fetchAllOffset(full, { pageSize: 2, maxPages: 3, what: "GET /cloud/v1/tasks" })).rejects.toThrow(PaginationLimitError);
  });
  test("a list that ends within the cap is read whole", async () => {
    const pages = async (page: number) => ({ count: 3, next: page < 3 ? `page=${page + 1}` : null, previous: null, results: [page] });
    const all: number[] = [];
    for await (const item of iterateNumberedPages(pages, { maxPages: 3 })) all.push(item);
    expect(all).toEqual([1, 2, 3]);
  });
});
