/** Current client lookup. */
import { RunningSimulator } from "../../../simulator";
import { call, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

test("GET /iam/clients/me returns the seeded client", async () => {
  const r = await call(sim.url, "GET", "/iam/clients/me");
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ id: 7350925, email: "platform@example.com", name: "Example Platform Team", status: "active", companyName: "Example Co", currentUser: 1023101 });
});

test("a custom seed object replaces the client and other sections default to empty", async () => {
  const custom = await start({ seed: { client: { id: 5, email: "x@example.org", status: "trial" } } });
  try {
    expect((await call(custom.url, "GET", "/iam/clients/me")).body).toEqual({ id: 5, email: "x@example.org", status: "trial" });
    expect((await call(custom.url, "GET", "/cloud/v1/projects")).body).toEqual({ count: 0, results: [] });
  } finally {
    await custom.close();
  }
});
