/**
 * The response schemas on their own: what each requires (the spec's fields and the ones the
 * lifecycles decide on), what it leaves open, and how a mismatch is named. Pure: no server.
 */
import { clusterSchema, upgradeVersionsSchema } from "../../../provider/api/cloud/k8s";
import { instanceSchema } from "../../../provider/api/cloud/instances";
import { projectPageSchema } from "../../../provider/api/cloud/projects";
import { taskIdListSchema, taskSchema } from "../../../provider/api/cloud/tasks";
import { delegationStatusSchema } from "../../../provider/api/dns/analyze";
import { checkBody, fieldName } from "../../../provider/api/schema";
import { createdEventSchema, eventListSchema } from "../../../provider/api/storage/notifications";
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
  test("a task without a state, or with one the API does not have, is malformed (a waiter would poll it to the deadline)", () => {
    expect(mismatch(taskSchema, { id: "t-1", task_type: "x" })).toMatchObject({ field: "state", problem: expect.stringContaining("missing") });
    expect(mismatch(taskSchema, { id: "t-1", task_type: "x", state: "DONE" })).toMatchObject({ field: "state", value: "DONE" });
    expect(mismatch(taskSchema, { id: "t-1", task_type: "x", state: null })).toMatchObject({ field: "state", problem: expect.stringContaining("\"NEW\"|\"RUNNING\"|\"FINISHED\"|\"ERROR\""), value: null });
  });
  test("created resources may hold integer ids (projects) but not other things", () => {
    expect(checkBody(taskSchema, { id: "t", task_type: "x", state: "FINISHED", created_resources: { projects: [5], instances: ["i"] } }).ok).toBe(true);
    expect(mismatch(taskSchema, { id: "t", task_type: "x", state: "FINISHED", created_resources: { instances: [null] } }).field).toBe("created_resources.instances[0]");
  });
  test("a write's task list needs at least one id", () => {
    expect(mismatch(taskIdListSchema, { tasks: [] }).field).toBe("tasks");
    expect(mismatch(taskIdListSchema, { tasks: [""] }).field).toBe("tasks[0]");
  });
});

describe("clusters", () => {
  test("version and status are required and shaped", () => {
    expect(checkBody(clusterSchema, cluster)).toMatchObject({ ok: true, value: { version: "v1.30.4", status: "Provisioned", taskId: null } });
    expect(mismatch(clusterSchema, { ...cluster, version: "" })).toMatchObject({ field: "version" });
    expect(mismatch(clusterSchema, { ...cluster, version: "1.30" })).toMatchObject({ field: "version", problem: expect.stringContaining("v<major>.<minor>.<patch>") });
    expect(mismatch(clusterSchema, { ...cluster, status: "" })).toMatchObject({ field: "status" });
    const { status: _s, ...noStatus } = cluster;
    expect(mismatch(clusterSchema, noStatus)).toMatchObject({ field: "status", problem: "required string is missing" });
  });
  test("upgrade versions: the count and each version are required", () => {
    expect(mismatch(upgradeVersionsSchema, { results: [] }).field).toBe("count");
    expect(mismatch(upgradeVersionsSchema, { count: 1, results: [{}] }).field).toBe("results[0].version");
    expect(checkBody(upgradeVersionsSchema, { count: 0, results: [] })).toEqual({ ok: true, value: { count: 0, results: [] } });
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
  test("an empty object or a missing key never reads as 'no events'", () => {
    expect(mismatch(eventListSchema, {}).field).toBe("reaching_used_space");
    const { reaching_used_requests: _r, ...three } = allEventKeys;
    expect(mismatch(eventListSchema, three).field).toBe("reaching_used_requests");
    expect(mismatch(eventListSchema, []).field).toBe("(body)");
  });
  test("every listed event needs its uuid; a further key must hold events", () => {
    expect(mismatch(eventListSchema, { ...allEventKeys, reaching_used_space: [{ storage_name: "m", bytes: 5 }] }).field).toBe("reaching_used_space[0].uuid");
    expect(mismatch(eventListSchema, { ...allEventKeys, weird: 1 }).field).toBe("weird");
    expect(checkBody(eventListSchema, { ...allEventKeys, reaching_new_thing: [{ uuid: "u-9" }] })).toMatchObject({ ok: true, value: [{ name: "reaching_new_thing", uuid: "u-9" }] });
  });
  test("a created event needs its name; its uuid may be left out (the lifecycle then looks it up)", () => {
    expect(checkBody(createdEventSchema, { name: "reaching_used_space" })).toMatchObject({ ok: true, value: { uuid: null } });
    expect(mismatch(createdEventSchema, { uuid: "u-1" }).field).toBe("name");
    expect(mismatch(createdEventSchema, { name: "reaching_used_space", bytes: -1 }).field).toBe("bytes");
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
  test("delegation: every field of the spec's table, the public platform's count names accepted", () => {
    const good = {
      authoritative_name_servers: [{ name: "ns1", ipv4Addresses: [], ipv6Addresses: [] }],
      gcore_authorized_count: 1,
      non_gcore_authorized_count: 0,
      is_whitelabel_delegation: false,
      zone_exists: true,
    };
    expect(checkBody(delegationStatusSchema, good)).toMatchObject({ ok: true, value: { serviceAuthorizedCount: 1, zoneExists: true } });
    expect(mismatch(delegationStatusSchema, { ...good, zone_exists: undefined }).field).toBe("zone_exists");
    expect(mismatch(delegationStatusSchema, { ...good, authoritative_name_servers: [{ ipv4Addresses: [], ipv6Addresses: [] }] }).field).toBe(
      "authoritative_name_servers[0].name",
    );
  });
  test("reseller rows need a date and an amount", () => {
    expect(mismatch(consumptionPageSchema, { limit: 100, offset: 0, count: 1, results: [{ date: "2026-09-01" }] }).field).toBe("results[0].amount");
    expect(mismatch(consumptionPageSchema, { limit: 100, offset: 0, results: [] }).field).toBe("count");
  });
  test("an AI task page needs `next`, or paging could not know whether it ended", () => {
    expect(mismatch(aiTaskPageSchema, { count: 0, results: [] }).field).toBe("next");
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
