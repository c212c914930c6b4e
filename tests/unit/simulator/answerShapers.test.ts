/**
 * The answer shapers of each dialect (simulator/answers/): the regular set sends every answer as
 * the routes build it (the spec's shapes), and each set says which dialect it is. What
 * "public-api" sends is proved over HTTP in dialect.test.ts and officialSdk.test.ts.
 */
import { ANSWER_SHAPERS } from "../../../simulator/answers";
import { DIALECTS, FUTURE_FIELD } from "../../../simulator/dialect";

const { regular } = ANSWER_SHAPERS;
const item = { id: "i-1", name: "web-01", created_at: "2026-01-01T00:00:00", tags: [], ssh_key_name: "k" };
const task = { id: "t-1", state: "FINISHED", created_resources: { instances: [], volumes: [] } };

test.each(DIALECTS)("the %s set says it is that dialect", (dialect) => {
  expect(ANSWER_SHAPERS[dialect].dialect).toBe(dialect);
});

test.each([
  ["object", () => regular.object(item), item],
  ["cloud.instance", () => regular.cloud.instance(item, 1), item],
  ["cloud.task", () => regular.cloud.task(task), task],
  ["k8s.cluster", () => regular.k8s.cluster(item), item],
  ["iam.client", () => regular.iam.client(item), item],
  ["storage.event", () => regular.storage.event(item), item],
])("regular %s sends the answer as built", (_name, shape, built) => {
  expect(shape()).toBe(built);
});

test.each([
  ["cloud.pageSize(1000)", () => regular.cloud.pageSize(1000), 1000],
  ["cloud.list", () => regular.cloud.list({ count: 3, results: [item] }, 2), { count: 3, results: [item] }],
  ["cloud.regionPage", () => regular.cloud.regionPage({ count: 1, results: [] }, 0), { count: 1, results: [] }],
  ["cloud.extraRegions", () => regular.cloud.extraRegions([]), []],
  ["k8s.extraClusters", () => regular.k8s.extraClusters(1, 76, []), []],
  ["dns.delegation", () => regular.dns.delegation(item), { status: 200, body: item }],
  ["storage.eventList", () => regular.storage.eventList({ reaching_used_space: [] }), { reaching_used_space: [] }],
  ["storage.eventWrite", () => regular.storage.eventWrite(), { status: 204 }],
  ["streaming.aiTaskPage", () => regular.streaming.aiTaskPage({ count: 0, next: null, previous: null, results: [] }), { count: 0, next: null, previous: null, results: [] }],
])("regular %s adds nothing", (_name, shape, want) => {
  expect(shape()).toEqual(want);
});

test("public-api list items are shaped by their position in the whole list", () => {
  const { cloud } = ANSWER_SHAPERS["public-api"];
  const page = cloud.list({ count: 4, results: [item, item] }, 1, cloud.instance) as { results: Array<Record<string, unknown>> };
  expect(page.results.map((r) => [Object.keys(r).includes("instance_id"), r[FUTURE_FIELD] !== undefined])).toEqual([
    [true, true],
    [false, true],
  ]);
  expect(page).toHaveProperty(FUTURE_FIELD);
});
