/** Streaming AI tasks: record shape, filters, search, ordering, paging, 422 on bad values. */
import { RunningSimulator } from "../../../simulator";
import { call, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

const list = (query = "") => call(sim.url, "GET", `/streaming/ai/tasks${query ? `?${query}` : ""}`);
type Rec = { task_id: string; task_name: string; status: string; started_at: string; progress: number; task_data: Record<string, unknown> };

test("default page: 10 records, newest started_at first, next page=2, previous null", async () => {
  const r = await list();
  expect(r.status).toBe(200);
  expect(r.body.count).toBe(27);
  expect(r.body.next).toBe("page=2");
  expect(r.body.previous).toBeNull();
  const recs: Rec[] = r.body.results;
  expect(recs).toHaveLength(10);
  expect(Object.keys(recs[0] as Rec).sort()).toEqual(["processing_time", "progress", "started_at", "status", "task_data", "task_id", "task_name"]);
  const starts = recs.map((x) => x.started_at);
  expect([...starts].sort().reverse()).toEqual(starts);
});

test("processing_time: {started_at, completed_at, total_time_sec}, filled as far as the task has got", async () => {
  const recs: (Rec & { processing_time: { started_at: string | null; completed_at: string | null; total_time_sec: number | null } })[] = (await list("limit=100")).body.results;
  expect(recs).toHaveLength(27);
  const seen = new Set<string>();
  for (const r of recs) {
    const pt = r.processing_time;
    expect(Object.keys(pt).sort()).toEqual(["completed_at", "started_at", "total_time_sec"]);
    if (["PENDING", "RECEIVED"].includes(r.status)) {
      expect(pt).toEqual({ started_at: null, completed_at: null, total_time_sec: null });
      seen.add("not started");
    } else if (["SUCCESS", "FAILURE", "REVOKED"].includes(r.status)) {
      // Ended: the duration is the difference of the two ISO timestamps.
      expect(pt.started_at).toBe(r.started_at);
      expect(typeof pt.total_time_sec).toBe("number");
      expect(pt.total_time_sec).toBeGreaterThan(0);
      const elapsed = (Date.parse(`${pt.completed_at}Z`) - Date.parse(`${pt.started_at}Z`)) / 1000;
      expect(elapsed).toBeCloseTo(pt.total_time_sec as number, 1);
      seen.add("ended");
    } else {
      expect(pt).toEqual({ started_at: r.started_at, completed_at: null, total_time_sec: null });
      seen.add("running");
    }
  }
  expect(seen).toEqual(new Set(["not started", "ended", "running"]));
});

test("every status and both names appear in the seed", async () => {
  const r = await list("limit=100");
  const recs: Rec[] = r.body.results;
  expect(new Set(recs.map((x) => x.status))).toEqual(new Set(["FAILURE", "PENDING", "RECEIVED", "RETRY", "REVOKED", "STARTED", "SUCCESS"]));
  expect(new Set(recs.map((x) => x.task_name))).toEqual(new Set(["transcription", "content-moderation"]));
});

test("paging: last page, page past the end, custom limit", async () => {
  const last = await list("page=3");
  expect(last.body.results).toHaveLength(7);
  expect(last.body.next).toBeNull();
  expect(last.body.previous).toBe("page=2");
  const past = await list("page=9");
  expect(past.body.results).toEqual([]);
  expect(past.body.count).toBe(27);
  const five = await list("limit=5&page=2");
  expect(five.body.results).toHaveLength(5);
  expect(five.body.next).toBe("page=3");
  expect(five.body.previous).toBe("page=1");
});

test("filters: task_id, task_name, status, date_created", async () => {
  const all: Rec[] = (await list("limit=100")).body.results;
  const one = all[4] as Rec;
  const byId = await list(`task_id=${one.task_id}`);
  expect(byId.body.results).toEqual([one]);
  const cm: Rec[] = (await list("task_name=content-moderation&limit=100")).body.results;
  expect(cm.length).toBe(all.filter((x) => x.task_name === "content-moderation").length);
  expect(cm.every((x) => x.task_name === "content-moderation")).toBe(true);
  const success = await list("status=SUCCESS&limit=100");
  expect(success.body.count).toBe(all.filter((x) => x.status === "SUCCESS").length);
  expect(success.body.results.every((x: Rec) => x.status === "SUCCESS" && x.progress === 100)).toBe(true);
  const day = one.started_at.slice(0, 10);
  const byDate = await list(`date_created=${day}&limit=100`);
  expect(byDate.body.count).toBeGreaterThan(0);
  expect(byDate.body.results.every((x: Rec) => x.started_at.startsWith(day))).toBe(true);
});

test("search is partial and case-insensitive over id, name, status and task_data", async () => {
  const all: Rec[] = (await list("limit=100")).body.results;
  const byStatus = await list("search=revok&limit=100");
  expect(byStatus.body.count).toBe(all.filter((x) => x.status === "REVOKED").length);
  const byData = await list("search=VIDEO-007&limit=100");
  expect(byData.body.count).toBe(1);
  expect(JSON.stringify(byData.body.results[0].task_data)).toContain("video-007");
  const idPart = (all[0] as Rec).task_id.slice(0, 8).toUpperCase();
  expect((await list(`search=${idPart}`)).body.results.map((x: Rec) => x.task_id)).toContain((all[0] as Rec).task_id);
  const none = await list("search=no-such-thing");
  expect(none.body).toEqual({ count: 0, next: null, previous: null, results: [] });
});

test.each(["task_id", "status", "task_name", "started_at"])("ordering=%s is ascending", async (key) => {
  const recs: Rec[] = (await list(`ordering=${key}&limit=100`)).body.results;
  const values = recs.map((x) => String(x[key as keyof Rec]));
  expect(values).toEqual([...values].sort());
});

test.each(["status=DONE", "task_name=dubbing", "ordering=-started_at", "page=0", "limit=abc", "date_created=last-week"])(
  "%s is 422 {error}",
  async (query) => {
    const r = await list(query);
    expect(r.status).toBe(422);
    expect(typeof r.body.error).toBe("string");
  },
);
