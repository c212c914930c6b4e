/**
 * `getInstances` and `getTasks` over 10,000 items: every page once, no page past `maxResults`
 * (and no item past it on the last page), the requested order kept, and one progress line per
 * page when the list takes more than one page. Each page after the first starts 5 items early
 * (the pager's overlap, which finds its place in a list that changed between pages), so it brings
 * 995 new items. The lists are served from memory through the
 * client's real product modules and response mapping (no socket, no simulator), so each case
 * takes milliseconds whatever else the machine runs; the same listings over a real socket
 * against the simulator are timed by `make bench` (section 5, Lookups).
 */
import type { LookupDefinition } from "../../../provider/lookups/runtime";
import { getInstancesLookup } from "../../../provider/lookups/instances";
import { getTasksLookup } from "../../../provider/lookups/tasks";
import { memoryClient, offsetList, type RecordedRequest } from "../harness/memoryTransport";

const TOTAL = 10_000;

const instances = Array.from({ length: TOTAL }, (_, i) => ({ id: `vm-${i}`, name: `vm-${i}`, status: "ACTIVE", vm_state: "active" }));

/** Tasks created one second apart, so either order is a different list. */
const tasks = Array.from({ length: TOTAL }, (_, i) => ({
  id: `task-${i}`,
  task_type: "create_vm",
  state: "FINISHED",
  created_on: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().slice(0, 19),
}));

/** The in-memory API: the instance list of project 1 in region 76, and the task list in the order asked. */
function api(request: RecordedRequest) {
  if (request.path === "/cloud/v1/instances/1/76") return offsetList(instances)(request.query);
  if (request.path === "/cloud/v1/tasks") {
    const ordered = request.query.order_by === "asc" ? tasks : [...tasks].reverse();
    return offsetList(ordered)(request.query);
  }
  return { status: 404, body: { message: `no route ${request.path}` } };
}

/** Runs a lookup's own argument check and requests over the in-memory API, collecting progress lines. */
async function run<A, N, R>(def: LookupDefinition<A, N, R>, args: A) {
  const { client, requests } = memoryClient(api);
  const lines: string[] = [];
  const result = await def.execute(
    { client, sub: () => Promise.reject(new Error("no sub-lookups here")), progress: (m) => lines.push(m) },
    def.normalize(args),
  );
  return { result, requests, lines };
}

const pagesOf = (requests: readonly RecordedRequest[]) => requests.map((r) => [r.query.limit, r.query.offset]);

test("getInstances pages through 10,000 instances once each and reports every page", async () => {
  const { result, requests, lines } = await run(getInstancesLookup, { projectId: 1, regionId: 76 });
  expect(result.instances).toHaveLength(TOTAL);
  expect(new Set(result.ids).size).toBe(TOTAL);
  const pages = 1 + Math.ceil((TOTAL - 1000) / 995);
  expect(requests.map((r) => r.query.offset)).toEqual(Array.from({ length: pages }, (_, i) => String(i * 995)));
  expect(lines).toHaveLength(pages);
  expect(lines[0]).toBe(`getInstances: page 1 of ${pages} (1000 of ${TOTAL} instances)`);
  expect(lines[pages - 1]).toBe(`getInstances: page ${pages} of ${pages} (${TOTAL} of ${TOTAL} instances)`);
});

test("getInstances stops at maxResults: no further page, and the last page asks only for what is missing", async () => {
  const { result, requests, lines } = await run(getInstancesLookup, { projectId: 1, regionId: 76, maxResults: 2500 });
  expect(result.instances).toHaveLength(2500);
  expect(pagesOf(requests)).toEqual([
    ["1000", "0"],
    ["1000", "995"],
    ["510", "1990"],
  ]);
  expect(lines).toEqual([
    "getInstances: page 1 of 3 (1000 of 2500 instances)",
    "getInstances: page 2 of 3 (1995 of 2500 instances)",
    "getInstances: page 3 of 3 (2500 of 2500 instances)",
  ]);
});

test("a lookup that takes one page reports nothing, and a small cap fetches only the cap", async () => {
  const { result, requests, lines } = await run(getTasksLookup, { projectId: 1, taskType: "create_vm", maxResults: 7 });
  expect(result.tasks).toHaveLength(7);
  expect(requests.map((r) => r.query.limit)).toEqual(["7"]);
  expect(lines).toEqual([]);
});

test("getTasks pages through 10,000 tasks in the requested order", async () => {
  const { result, requests, lines } = await run(getTasksLookup, { projectId: 1, taskType: "create_vm", orderBy: "asc", pageSize: 1000 });
  expect(result.tasks).toHaveLength(TOTAL);
  expect(new Set(result.ids).size).toBe(TOTAL);
  const created = result.tasks.map((t) => Date.parse(t.createdOn ?? ""));
  expect(created.every((t, i) => i === 0 || t > (created[i - 1] as number))).toBe(true);
  expect(requests).toHaveLength(11);
  expect(requests.every((r) => r.query.order_by === "asc" && r.query.project_id === "1" && r.query.task_type === "create_vm")).toBe(true);
  expect(lines).toHaveLength(11);
  expect(lines[10]).toBe(`getTasks: page 11 of 11 (${TOTAL} of ${TOTAL} tasks)`);
});

test("getTasks stops at maxResults: the last page asks only for what is missing", async () => {
  const { result, requests } = await run(getTasksLookup, { projectId: 1, taskType: "create_vm", pageSize: 1000, maxResults: 1500 });
  expect(result.tasks).toHaveLength(1500);
  expect(result.tasks[0]?.id).toBe(`task-${TOTAL - 1}`);
  expect(pagesOf(requests)).toEqual([
    ["1000", "0"],
    ["505", "995"],
  ]);
});
