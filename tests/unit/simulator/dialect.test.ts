/**
 * Answer dialects (CONTRACT.md "Dialects"): every variant of "public-api" is observed over real
 * HTTP, the lifecycles (k8s upgrade, storage events) behave the same in it, auth, errors and
 * malformed answers still work, the regular dialect is unchanged, and the switch works as an
 * option, a CLI flag and an admin call.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { DIALECTS, RunningSimulator, startSimulator } from "../../../simulator";
import { parseArgs, USAGE } from "../../../simulator/cli";
import { PUBLIC_API_PAGE_CAP } from "../../../simulator/answers/cloud";
import { PROVISIONING_CLUSTER_NAME } from "../../../simulator/answers/k8s";
import { FUTURE_FIELD } from "../../../simulator/dialect";
import defaultSeed from "../../../simulator/seed/default.json";
import { call, expectCloudError, KEY, RO_KEY, Reply, start } from "./helpers";

const admin = (url: string, method: string, p: string, body?: unknown) =>
  call(url, method, `/__admin${p}`, { key: null, ...(body !== undefined ? { body } : {}) });

/** Every answer of a sweep over the read endpoints (for "no unknown field" / "unchanged" checks). */
async function sweep(url: string): Promise<Reply[]> {
  const paths = [
    "/iam/clients/me",
    "/cloud/v1/projects",
    "/cloud/v1/regions",
    "/cloud/v1/instances/1/76",
    "/cloud/v1/tasks",
    "/cloud/v2/k8s/clusters/1/76",
    "/cloud/v2/k8s/clusters/1/76/prod-cluster",
    "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade_versions",
    "/storage/notifications/v1/events",
    "/dns/v2/analyze/example.com/delegation-status",
    "/streaming/ai/tasks",
    "/waap/reseller/ping",
    "/waap/reseller/v1/prebilling/total/domains?from=2026-09-01&to=2026-09-03",
  ];
  const replies: Reply[] = [];
  for (const p of paths) replies.push(await call(url, "GET", p));
  return replies;
}

describe("switching the dialect", () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await start();
  });
  afterAll(() => sim.close());

  test("the default is regular; POST /__admin/dialect switches, GET reports it", async () => {
    expect(DIALECTS).toEqual(["regular", "public-api"]);
    expect((await admin(sim.url, "GET", "/dialect")).body).toEqual({ dialect: "regular" });
    expect((await call(sim.url, "GET", "/cloud/v1/regions")).body.count).toBe(5);
    const set = await admin(sim.url, "POST", "/dialect", { dialect: "public-api" });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ dialect: "public-api" });
    expect((await admin(sim.url, "GET", "/dialect")).body).toEqual({ dialect: "public-api" });
    expect((await call(sim.url, "GET", "/cloud/v1/regions")).body.count).toBeUndefined();
    expect((await admin(sim.url, "POST", "/dialect", { dialect: "regular" })).body).toEqual({ dialect: "regular" });
    expect((await call(sim.url, "GET", "/cloud/v1/regions")).body.count).toBe(5);
  });

  test("a bad dialect is 400 naming the allowed values, and changes nothing", async () => {
    for (const body of [{ dialect: "public" }, { dialect: 1 }, {}, ["public-api"]]) {
      const r = await admin(sim.url, "POST", "/dialect", body);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("dialect must be one of: regular, public-api");
    }
    expect((await admin(sim.url, "GET", "/dialect")).body).toEqual({ dialect: "regular" });
  });

  test("a reset goes back to the dialect the simulator was started with", async () => {
    await admin(sim.url, "POST", "/dialect", { dialect: "public-api" });
    await admin(sim.url, "POST", "/reset");
    expect((await admin(sim.url, "GET", "/dialect")).body).toEqual({ dialect: "regular" });
    const pub = await start({ dialect: "public-api" });
    try {
      await admin(pub.url, "POST", "/dialect", { dialect: "regular" });
      pub.reset();
      expect((await admin(pub.url, "GET", "/dialect")).body).toEqual({ dialect: "public-api" });
    } finally {
      await pub.close();
    }
  });

  test("the option is checked", async () => {
    await expect(startSimulator({ dialect: "loose" as never })).rejects.toThrow(/dialect option must be one of: regular, public-api/);
  });

  test("CLI: --dialect sets the option, a bad value names the allowed ones, --help explains it", () => {
    expect(parseArgs(["--dialect", "public-api"]).options.dialect).toBe("public-api");
    expect(parseArgs(["--dialect=regular"]).options.dialect).toBe("regular");
    expect(parseArgs([]).options.dialect).toBeUndefined();
    expect(() => parseArgs(["--dialect", "public"])).toThrow('--dialect must be one of: regular, public-api (got "public")');
    expect(() => parseArgs(["--dialect"])).toThrow(/needs a value/);
    expect(USAGE).toContain("--dialect NAME");
    expect(USAGE).toContain("regular, public-api");
    expect(USAGE).toContain("POST /__admin/dialect");
  });
});

describe("regular dialect is unchanged", () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await start();
  });
  afterAll(() => sim.close());

  test("no unknown fields, spec names, full pages, JSON content type, 204 on event writes", async () => {
    for (const r of await sweep(sim.url)) {
      expect(r.status).toBe(200);
      expect(r.text).not.toContain(FUTURE_FIELD);
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    }
    const instances = (await call(sim.url, "GET", "/cloud/v1/instances/1/76")).body;
    expect(instances.count).toBe(25);
    expect(instances.results).toHaveLength(25);
    for (const i of instances.results) expect(Object.keys(i)).toEqual(expect.arrayContaining(["id", "name", "created_at", "tags", "ssh_key_name"]));
    const clusters = (await call(sim.url, "GET", "/cloud/v2/k8s/clusters/1/76")).body;
    expect(clusters.results.map((c: { name: string }) => c.name)).not.toContain(PROVISIONING_CLUSTER_NAME);
    expect(clusters.results[0]).toHaveProperty("creator_task_id");
    const ai = (await call(sim.url, "GET", "/streaming/ai/tasks")).body;
    expect(ai.count).toBe(27);
    expect(ai.results[0]).toHaveProperty("task_name");
    expect(ai.results[0]).toHaveProperty("started_at");
    const dns = (await call(sim.url, "GET", "/dns/v2/analyze/not-delegated.example/delegation-status")).body;
    expect(dns.service_authorized_count).toBe(0);
    expect(dns.authoritative_name_servers[0].ipv6Addresses).toEqual([]);
    const events = (await call(sim.url, "GET", "/storage/notifications/v1/events")).body;
    expect(events).toEqual({ reaching_used_space: [], reaching_files_quantity: [], reaching_used_traffic: [], reaching_used_requests: [] });
    const ev = await call(sim.url, "POST", "/storage/notifications/v1/event?client_id=5", { body: { name: "reaching_used_space", bytes: 1 } });
    expect(ev.body.client_id).toBe(5);
    const put = await call(sim.url, "PUT", "/storage/notifications/v1/event", { body: { uuid: ev.body.uuid, bytes: 2 } });
    expect(put.status).toBe(204);
    expect(put.text).toBe("");
    expect((await call(sim.url, "DELETE", "/storage/notifications/v1/event", { body: { uuid: ev.body.uuid } })).status).toBe(204);
  });
});

describe("public-api dialect", () => {
  let fakeNow = Date.parse("2026-11-01T00:00:00Z");
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await start({ dialect: "public-api", now: () => fakeNow });
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.reset());

  test("it is the started dialect", async () => {
    expect((await admin(sim.url, "GET", "/dialect")).body).toEqual({ dialect: "public-api" });
  });

  test("every answer carries an unknown field (but the event list of an account without events: {})", async () => {
    const replies = await sweep(sim.url);
    for (const r of replies) expect(r.status).toBe(200);
    const eventList = 8; // the index of "/storage/notifications/v1/events" in sweep()
    expect(replies[eventList]?.text).toBe("{}");
    for (const r of replies.filter((_, i) => i !== eventList)) expect(r.text).toContain(FUTURE_FIELD);
    await call(sim.url, "POST", "/storage/notifications/v1/event", { body: { name: "reaching_used_space", storage_name: "future", bytes: 1 } });
    expect((await call(sim.url, "GET", "/storage/notifications/v1/events")).text).toContain(FUTURE_FIELD);
    await call(sim.url, "POST", "/__admin/reset", { key: null });
    expect((await call(sim.url, "GET", "/waap/reseller/ping")).body).toMatchObject({ message: "pong", [FUTURE_FIELD]: expect.any(Object) });
    const bill = (await call(sim.url, "GET", "/waap/reseller/v1/prebilling/total/domains?from=2026-09-01&to=2026-09-03")).body;
    expect(bill).toMatchObject({ limit: 100, offset: 0, count: 2 });
    expect(bill.results[0]).toHaveProperty(FUTURE_FIELD);
    const projects = (await call(sim.url, "GET", "/cloud/v1/projects")).body;
    expect(projects.count).toBe(3);
    expect(projects.results[0]).toHaveProperty(FUTURE_FIELD);
  });

  describe("1. instances", () => {
    test("odd positions have the older Go SDK's field names; position 2 mod 4 omits optional fields", async () => {
      const all: Array<Record<string, unknown>> = [];
      for (let offset = 0; ; offset += PUBLIC_API_PAGE_CAP) {
        const r = await call(sim.url, "GET", `/cloud/v1/instances/1/76?limit=1000&offset=${offset}`);
        expect(r.body.count).toBe(25);
        if (r.body.results.length === 0) break;
        all.push(...r.body.results);
      }
      expect(all).toHaveLength(25);
      all.forEach((inst, pos) => {
        const name = `web-${String(pos + 1).padStart(2, "0")}`;
        expect(inst).toHaveProperty(FUTURE_FIELD);
        expect(inst).toHaveProperty("task_id");
        if (pos % 2 === 1) {
          expect(inst.instance_name).toBe(name);
          expect(inst.instance_id).toMatch(/^[0-9a-f-]{36}$/);
          expect(inst.instance_created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
          for (const k of ["id", "name", "created_at", "tags", "ssh_key_name"]) expect(inst).not.toHaveProperty(k);
          expect(inst.security_groups).toEqual([{ name: "default" }]);
        } else {
          expect(inst.name).toBe(name);
          expect(inst).toHaveProperty("id");
          expect(inst).toHaveProperty("tags");
          const optional = ["ssh_key_name", "instance_description", "creator_task_id", "fixed_ip_assignments", "instance_isolation", "ddos_profile"];
          for (const k of optional) {
            if (pos % 4 === 2) expect(inst).not.toHaveProperty(k);
            else expect(inst).toHaveProperty(k);
          }
        }
      });
      // Filters still work on the real fields.
      const one = (await call(sim.url, "GET", "/cloud/v1/instances/1/76?name=web-02")).body;
      expect(one.count).toBe(1);
      expect(one.results[0].instance_name).toBeUndefined(); // position 0 of its own list
      expect(one.results[0].name).toBe("web-02");
    });
  });

  describe("2. page caps", () => {
    test(`instances, tasks, projects and clusters answer at most ${PUBLIC_API_PAGE_CAP} items; count stays the total`, async () => {
      const inst = (await call(sim.url, "GET", "/cloud/v1/instances/1/76?limit=500")).body;
      expect(inst.results).toHaveLength(PUBLIC_API_PAGE_CAP);
      expect(inst.count).toBe(25);
      expect((await call(sim.url, "GET", "/cloud/v1/instances/1/76?limit=3")).body.results).toHaveLength(3);
      expect((await call(sim.url, "GET", "/cloud/v1/instances/1/76?offset=20&limit=100")).body.results).toHaveLength(5);
      for (let i = 0; i < 15; i++) await admin(sim.url, "POST", "/tasks", { task_type: "create_vm", project_id: 1, region_id: 76 });
      const tasks = (await call(sim.url, "GET", "/cloud/v1/tasks?limit=100")).body;
      expect(tasks.count).toBe(15);
      expect(tasks.results).toHaveLength(PUBLIC_API_PAGE_CAP);
      const rest = (await call(sim.url, "GET", "/cloud/v1/tasks?limit=100&offset=10")).body;
      expect(rest.results).toHaveLength(5);

      const seed = JSON.parse(JSON.stringify(defaultSeed)) as typeof defaultSeed & { projects: object[]; clusters: object[] };
      const cluster = seed.clusters[0] as Record<string, unknown>;
      for (let i = 0; i < 12; i++) {
        seed.projects.push({ id: 100 + i, name: `p-${i}`, is_default: false, state: "ACTIVE" });
        seed.clusters.push({ ...cluster, id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, name: `many-${i}` });
      }
      const big = await start({ dialect: "public-api", seed });
      try {
        const projects = (await call(big.url, "GET", "/cloud/v1/projects?limit=1000")).body;
        expect(projects.count).toBe(15);
        expect(projects.results).toHaveLength(PUBLIC_API_PAGE_CAP);
        const clusters = (await call(big.url, "GET", "/cloud/v2/k8s/clusters/1/76?limit=1000")).body;
        expect(clusters.count).toBe(17); // 4 seeded + 12 + the provisioning one
        expect(clusters.results).toHaveLength(PUBLIC_API_PAGE_CAP);
        const last = (await call(big.url, "GET", "/cloud/v2/k8s/clusters/1/76?offset=10")).body;
        expect(last.results.map((c: { name: string }) => c.name).at(-1)).toBe(PROVISIONING_CLUSTER_NAME);
      } finally {
        await big.close();
      }
    });

    test("regions: no count; the client pages until an empty page", async () => {
      const first = (await call(sim.url, "GET", "/cloud/v1/regions?limit=4")).body;
      expect(first).not.toHaveProperty("count");
      expect(first.results).toHaveLength(4);
      const second = (await call(sim.url, "GET", "/cloud/v1/regions?limit=4&offset=4")).body;
      expect(second.results).toHaveLength(3);
      expect((await call(sim.url, "GET", "/cloud/v1/regions?offset=7")).body.results).toEqual([]);
    });
  });

  describe("3. streaming AI tasks", () => {
    test("records in the Python SDK's shape, pages without count, next null on the last page", async () => {
      const seen = new Set<string>();
      let page = 1;
      let last: Reply | undefined;
      for (;;) {
        const r = await call(sim.url, "GET", `/streaming/ai/tasks?limit=10&page=${page}`);
        expect(r.status).toBe(200);
        expect(r.body).not.toHaveProperty("count");
        expect(r.body.previous).toBe(page === 1 ? null : `page=${page - 1}`);
        for (const t of r.body.results) {
          expect(Object.keys(t).sort()).toEqual(["processing_time", "progress", "status", "task_data", "task_id", FUTURE_FIELD].sort());
          expect(["transcription", "content-moderation"]).toContain(t.task_data.task_name);
          expect(Object.keys(t.processing_time).sort()).toEqual(["completed_at", "started_at", "total_time_sec"]);
          seen.add(t.task_id);
        }
        last = r;
        if (r.body.next === null) break;
        expect(r.body.next).toBe(`page=${page + 1}`);
        page++;
      }
      expect(page).toBe(3);
      expect(last?.body.results).toHaveLength(7);
      expect(seen.size).toBe(27);
      // Filters and ordering still see the task name and start time.
      const moderation = (await call(sim.url, "GET", "/streaming/ai/tasks?task_name=content-moderation&limit=100")).body.results;
      expect(moderation.length).toBeGreaterThan(0);
      for (const t of moderation) expect(t.task_data.task_name).toBe("content-moderation");
    });
  });

  describe("4. DNS delegation status", () => {
    test("public count names, ipv6Addresses null without IPv6, JSON labelled text/plain", async () => {
      const r = await call(sim.url, "GET", "/dns/v2/analyze/not-delegated.example/delegation-status");
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(r.body).toMatchObject({ gcore_authorized_count: 0, non_gcore_authorized_count: 2, zone_exists: false });
      expect(r.body).not.toHaveProperty("service_authorized_count");
      expect(r.body).not.toHaveProperty("non_service_authorized_count");
      expect(r.body.authoritative_name_servers[0]).toEqual({ name: "ns1.other-provider.example", ipv4Addresses: ["203.0.113.10"], ipv6Addresses: null });
      const ok = (await call(sim.url, "GET", "/dns/v2/analyze/example.com/delegation-status")).body;
      expect(ok.gcore_authorized_count).toBe(2);
      expect(ok.authoritative_name_servers[0].ipv6Addresses).toEqual(["2001:db8::53"]);
      const unknown = (await call(sim.url, "GET", "/dns/v2/analyze/nothing-here.example/delegation-status")).body;
      expect(unknown).toMatchObject({ authoritative_name_servers: null, gcore_authorized_count: 0, zone_exists: false });
    });

    test("errors keep their shape and JSON type", async () => {
      const bad = await call(sim.url, "GET", "/dns/v2/analyze/bad..name/delegation-status");
      expect(bad.status).toBe(400);
      expect(bad.headers.get("content-type")).toMatch(/^application\/json/);
      expect(typeof bad.body.error).toBe("string");
    });
  });

  describe("5. storage notifications", () => {
    const E = "/storage/notifications/v1/event";
    test("an account without events answers {}; empty kinds null, no client_id, empty names omitted, uuid kept; PUT/DELETE 200 {}; 409 on duplicates", async () => {
      const empty = await call(sim.url, "GET", `${E}s`);
      expect(empty.text).toBe("{}");
      const created = await call(sim.url, "POST", `${E}?client_id=5`, { body: { name: "reaching_used_space", storage_name: "", bucket_name: "b1", bytes: 100 } });
      expect(created.status).toBe(200);
      expect(created.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.body).not.toHaveProperty("client_id");
      expect(created.body).not.toHaveProperty("storage_name");
      expect(created.body).toMatchObject({ name: "reaching_used_space", bucket_name: "b1", bytes: 100 });
      const dup = await call(sim.url, "POST", `${E}?client_id=5`, { body: { name: "reaching_used_space", storage_name: "", bucket_name: "b1", bytes: 7 } });
      expect(dup.status).toBe(409);
      expect(dup.body.error).toMatch(/already exists/);
      const list = (await call(sim.url, "GET", `${E}s`)).body;
      expect(list.reaching_files_quantity).toBeNull();
      expect(list.reaching_used_space).toHaveLength(1);
      const item = list.reaching_used_space[0];
      expect(item).toMatchObject({ uuid: created.body.uuid, bucket_name: "b1", bytes: 100 });
      expect(item).not.toHaveProperty("client_id");
      expect(item).not.toHaveProperty("storage_name");
      expect(item).toHaveProperty(FUTURE_FIELD);
      // The state still knows the client id (identity), only the answer leaves it out.
      expect(sim.state().storageEvents[0]?.client_id).toBe(5);

      const put = await call(sim.url, "PUT", E, { body: { uuid: created.body.uuid, bytes: 200 } });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({});
      expect((await call(sim.url, "GET", `${E}s`)).body.reaching_used_space[0].bytes).toBe(200);
      const del = await call(sim.url, "DELETE", E, { body: { uuid: created.body.uuid } });
      expect(del.status).toBe(200);
      expect(del.body).toEqual({});
      expect((await call(sim.url, "GET", `${E}s`)).text).toBe("{}"); // the account has no event again
      expect((await call(sim.url, "DELETE", E, { body: { uuid: created.body.uuid } })).status).toBe(400);
    });
  });

  describe("6. Kubernetes clusters", () => {
    const BASE = "/cloud/v2/k8s/clusters";
    test("project 1 / region 76 lists an extra Provisioning cluster; others omit optional fields and keep task_id", async () => {
      const list = (await call(sim.url, "GET", `${BASE}/1/76`)).body;
      expect(list.count).toBe(5);
      const names = list.results.map((c: { name: string }) => c.name);
      expect(names).toEqual(["prod-cluster", "demo-cluster", "legacy-cluster", "edge-cluster", PROVISIONING_CLUSTER_NAME]);
      const prov = list.results[4];
      expect(prov).toMatchObject({ status: "Provisioning", version: "", pools: [], task_id: null });
      for (const c of list.results) {
        expect(c).toHaveProperty("task_id");
        expect(c).toHaveProperty(FUTURE_FIELD);
        for (const k of ["creator_task_id", "cni", "fixed_network", "authentication", "is_ipv6"]) expect(c).not.toHaveProperty(k);
        for (const k of ["id", "name", "version", "status", "pools", "keypair", "is_public", "created_at", "add_ons", "csi", "logging"]) expect(c).toHaveProperty(k);
      }
      expect(list.results[0].pools[0]).not.toHaveProperty("servergroup_id");
      expect(list.results[0].pools[0]).toHaveProperty(FUTURE_FIELD);
      const get = await call(sim.url, "GET", `${BASE}/1/76/${PROVISIONING_CLUSTER_NAME}`);
      expect(get.status).toBe(200);
      expect(get.body).toEqual(prov);
      expect((await call(sim.url, "GET", `${BASE}/1/76/${PROVISIONING_CLUSTER_NAME}/upgrade_versions`)).body).toMatchObject({ count: 0, results: [] });
      const up = await call(sim.url, "POST", `${BASE}/1/76/${PROVISIONING_CLUSTER_NAME}/upgrade`, { body: { version: "v1.31.2" } });
      expectCloudError(up, 400, "ValidationError");
      expect((await call(sim.url, "GET", `${BASE}/2/76`)).body.results.map((c: { name: string }) => c.name)).toEqual(["staging-cluster"]);
      expect(sim.state().clusters.map((c) => c.name)).not.toContain(PROVISIONING_CLUSTER_NAME);
    });

    test("the upgrade lifecycle is unchanged: versions, upgrade, lock via task_id, 409, FINISHED, new version", async () => {
      const versions = (await call(sim.url, "GET", `${BASE}/1/76/prod-cluster/upgrade_versions`)).body;
      expect(versions.count).toBe(1);
      expect(versions.results[0].version).toBe("v1.31.2");
      const up = await call(sim.url, "POST", `${BASE}/1/76/prod-cluster/upgrade`, { body: { version: "v1.31.2" } });
      expect(up.status).toBe(200);
      const taskId = up.body.tasks[0] as string;
      const locked = (await call(sim.url, "GET", `${BASE}/1/76/prod-cluster`)).body;
      expect(locked.task_id).toBe(taskId);
      expect(locked.status).toBe("Provisioned");
      expectCloudError(await call(sim.url, "POST", `${BASE}/1/76/prod-cluster/upgrade`, { body: { version: "v1.31.2" } }), 409, "ConflictError");
      const running = (await call(sim.url, "GET", `/cloud/v1/tasks/${taskId}`)).body;
      expect(running.state).toBe("NEW");
      expect(running.created_resources).toBeNull();
      expect(running).toHaveProperty(FUTURE_FIELD);
      fakeNow += 31_000;
      const done = (await call(sim.url, "GET", `/cloud/v1/tasks/${taskId}`)).body;
      expect(done).toMatchObject({ state: "FINISHED", task_type: "upgrade_k8s_cluster", error: null, detailed_state: "FINISHED", acknowledged_at: null, job_id: null });
      expect(done).toHaveProperty("user_client_id");
      const keys = Object.keys(done.created_resources);
      expect(keys.length).toBeGreaterThan(10);
      keys.forEach((k, i) => expect(done.created_resources[k]).toEqual(i % 2 === 1 ? null : []));
      const listed = (await call(sim.url, "GET", "/cloud/v1/tasks?task_type=upgrade_k8s_cluster")).body.results[0];
      expect(listed.created_resources).toEqual(done.created_resources);
      const after = (await call(sim.url, "GET", `${BASE}/1/76/prod-cluster`)).body;
      expect(after).toMatchObject({ version: "v1.31.2", status: "Provisioned", task_id: null });
    });

    test("created resources that hold ids keep them", async () => {
      const made = await admin(sim.url, "POST", "/tasks", { task_type: "create_vm", project_id: 1, region_id: 76, created_resources: { instances: ["i-1"] } });
      await admin(sim.url, "POST", `/tasks/${made.body.tasks[0]}/finish`);
      const t = (await call(sim.url, "GET", `/cloud/v1/tasks/${made.body.tasks[0]}`)).body;
      expect(t.created_resources.instances).toEqual(["i-1"]);
    });
  });

  describe("8. regions and the current client", () => {
    test("regions with the OpenAPI's other states, null zone and volume types, extra fields", async () => {
      const regions = (await call(sim.url, "GET", "/cloud/v1/regions")).body.results;
      const preview = regions.find((r: { id: number }) => r.id === 9001);
      expect(preview).toMatchObject({ state: "NEW", zone: null, available_volume_types: null, file_share_types: null, coordinates: null });
      expect(regions.find((r: { id: number }) => r.id === 9002)).toMatchObject({ state: "DELETION_FAILED", zone: "RUSSIA_AND_CIS" });
      for (const r of regions) {
        expect(r).toHaveProperty(FUTURE_FIELD);
        expect(r).toHaveProperty("coordinates");
        expect(r).toHaveProperty("file_share_types");
      }
      const shown = (await call(sim.url, "GET", "/cloud/v1/regions?show_volume_types=true&display_name=Preview-1")).body.results;
      expect(shown[0].available_volume_types).toEqual(["standard"]);
      expect((await call(sim.url, "GET", "/cloud/v1/instances/1/9001")).body).toMatchObject({ count: 0, results: [] });
    });

    test("serviceStatuses: entries without status or enabled, a new status value, unknown fields", async () => {
      const me = (await call(sim.url, "GET", "/iam/clients/me")).body;
      expect(me).toMatchObject({ id: 7350925, email: "platform@example.com", status: "active" });
      expect(me.serviceStatuses.CDN).toEqual({ enabled: true });
      expect(me.serviceStatuses.DNS).toEqual({ status: "active" });
      expect(me.serviceStatuses.DDOS.status).toBe("activating");
      expect(me.serviceStatuses.CLOUD).toHaveProperty(FUTURE_FIELD);
      expect(me).toHaveProperty(FUTURE_FIELD);
    });
  });

  describe("auth, errors, faults and malformed answers", () => {
    test("work as in the regular dialect", async () => {
      const unauth = await call(sim.url, "GET", "/cloud/v1/projects", { key: "wrong" });
      expect(unauth.status).toBe(401);
      expect(unauth.body.exception_class).toBe("token_not_valid");
      const ro = await call(sim.url, "POST", "/storage/notifications/v1/event", { key: RO_KEY, body: { name: "reaching_used_space" } });
      expect(ro.status).toBe(403);
      expect(ro.body).toEqual({ error: "Permission denied" });
      expectCloudError(await call(sim.url, "GET", "/cloud/v2/k8s/clusters/1/76/nope"), 404, "NotFoundError");
      expectCloudError(await call(sim.url, "GET", "/cloud/v1/instances/1/76?limit=0"), 400, "ValidationError");
      await admin(sim.url, "POST", "/malformed", { mode: "wrongShape", path: "/cloud/v1/regions", times: 1 });
      expect((await call(sim.url, "GET", "/cloud/v1/regions")).body).toEqual({ weird: 1 });
      expect((await call(sim.url, "GET", "/cloud/v1/regions")).body.results).toHaveLength(7);
      await admin(sim.url, "POST", "/malformed", { mode: "nulls", path: "/storage/notifications/v1/event", method: "PUT", times: 1 });
      const ev = await call(sim.url, "POST", "/storage/notifications/v1/event", { body: { name: "reaching_used_space", bytes: 1 } });
      const spoilt = await call(sim.url, "PUT", "/storage/notifications/v1/event", { body: { uuid: ev.body.uuid, bytes: 3 } });
      expect(spoilt.status).toBe(200);
      expect(spoilt.body).toEqual({});
      await admin(sim.url, "POST", "/faults", { errorRate: 1, path: "/iam/clients/me", times: 1 });
      expect((await call(sim.url, "GET", "/iam/clients/me")).status).toBe(503);
      expect((await call(sim.url, "GET", "/iam/clients/me")).status).toBe(200);
      expect(KEY).toBe("test-key");
    });
  });

  test("the state and the state file never hold dialect shapes", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-dialect-"));
    const file = path.join(dir, "state.json");
    try {
      const s = await start({ dialect: "public-api", stateFile: file });
      await call(s.url, "POST", "/storage/notifications/v1/event?client_id=9", { body: { name: "reaching_used_requests", count: 2 } });
      await sweep(s.url);
      const state = await admin(s.url, "GET", "/state");
      expect(state.text).not.toContain(FUTURE_FIELD);
      expect(state.body.clusters).toHaveLength(10);
      expect(state.body.regions).toHaveLength(5);
      await s.close();
      const saved = fs.readFileSync(file, "utf8");
      expect(saved).not.toContain(FUTURE_FIELD);
      expect(saved).not.toContain(PROVISIONING_CLUSTER_NAME);
      expect(JSON.parse(saved).state.storageEvents[0]).toMatchObject({ name: "reaching_used_requests", count: 2, client_id: 9 });
      const again = await start({ stateFile: file });
      try {
        const list = (await call(again.url, "GET", "/storage/notifications/v1/events")).body;
        expect(list.reaching_used_requests[0]).toMatchObject({ count: 2, client_id: 9 });
        expect(list.reaching_used_space).toEqual([]);
      } finally {
        await again.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
