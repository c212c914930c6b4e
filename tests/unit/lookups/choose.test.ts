/**
 * Choosing one project or region: by name/id/capability, ACTIVE regions only, and clear errors
 * naming the candidates on zero or several matches. Runs through the lookups against the
 * simulator seed, plus the pure choosers on hand-made lists for cases the seed cannot show.
 */
import type { RunningSimulator } from "../../../simulator";
import type { Project } from "../../../provider/api/cloud/projects";
import { LookupMatchError } from "../../../provider/lookups/errors";
import { runLookup } from "../../../provider/lookups/runtime";
import { chooseProject, getProjectLookup, getProjectsLookup } from "../../../provider/lookups/projects";
import { chooseRegion, getRegionLookup, getRegionsLookup } from "../../../provider/lookups/regions";
import { envFor, requestsTo, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => sim.reset());

async function failure(p: Promise<unknown>): Promise<LookupMatchError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LookupMatchError);
  return err as LookupMatchError;
}

describe("getProjects / getProject", () => {
  it("lists the seed's active projects, and the deleted one only when asked", async () => {
    const env = envFor(sim);
    expect((await runLookup(getProjectsLookup, {}, env)).ids).toEqual([1, 2, 3]);
    const all = await runLookup(getProjectsLookup, { includeDeleted: true }, env);
    expect(all.projects.map((p) => [p.id, p.name, p.state])).toEqual([
      [1, "default", "ACTIVE"],
      [2, "staging", "ACTIVE"],
      [3, "analytics", "ACTIVE"],
      [4, "old-sandbox", "DELETED"],
    ]);
  });

  it("chooses the default project when no name is given", async () => {
    const p = await runLookup(getProjectLookup, {}, envFor(sim));
    expect(p).toMatchObject({ id: 1, name: "default", isDefault: true, state: "ACTIVE" });
  });

  it("chooses by exact name and by id", async () => {
    const env = envFor(sim);
    expect((await runLookup(getProjectLookup, { name: "staging" }, env)).id).toBe(2);
    expect((await runLookup(getProjectLookup, { id: 3 }, env)).name).toBe("analytics");
    expect((await runLookup(getProjectLookup, { name: "analytics", id: 3 }, env)).id).toBe(3);
  });

  it("fails on an unknown name, naming the candidates (and never a deleted project)", async () => {
    const e = await failure(runLookup(getProjectLookup, { name: "old-sandbox" }, envFor(sim)));
    expect(e.message).toBe(
      'getProject: no project with name "old-sandbox". Candidates: "default" (id 1), "staging" (id 2), "analytics" (id 3)',
    );
    expect(e.matches).toBe(0);
  });

  it("hints at a case-only difference", async () => {
    const e = await failure(runLookup(getProjectLookup, { name: "Staging" }, envFor(sim)));
    expect(e.message).toMatch(/names differ only in case: "staging" \(id 2\)/);
  });

  it("fails when name and id disagree", async () => {
    const e = await failure(runLookup(getProjectLookup, { name: "staging", id: 1 }, envFor(sim)));
    expect(e.message).toMatch(/^getProject: no project with name "staging" and id 1\./);
  });

  const p = (id: number, name: string, isDefault = false): Project => ({
    id, name, isDefault, state: "ACTIVE", clientId: null, description: null, createdAt: null, deletedAt: null, taskId: null,
  });

  it("fails on several projects with one name, listing their ids", () => {
    expect(() => chooseProject([p(1, "a", true), p(5, "dup"), p(6, "dup")], { name: "dup" })).toThrow(
      'getProject: 2 projects match name "dup": "dup" (id 5), "dup" (id 6); pass id to pick one',
    );
  });

  it("fails when there is no default project or several", () => {
    expect(() => chooseProject([p(1, "a"), p(2, "b")], {})).toThrow(
      'getProject: no default project found; pass name or id. Projects: "a" (id 1), "b" (id 2)',
    );
    expect(() => chooseProject([p(1, "a", true), p(2, "b", true)], {})).toThrow(
      'getProject: 2 projects are marked default: "a" (id 1), "b" (id 2); pass name or id',
    );
  });
});

describe("getRegions / getRegion", () => {
  it("getRegions returns only ACTIVE regions by default and filters by capability", async () => {
    const env = envFor(sim);
    expect([...(await runLookup(getRegionsLookup, {}, env)).ids].sort((a, b) => a - b)).toEqual([8, 38, 76]);
    expect([...(await runLookup(getRegionsLookup, { hasK8s: true }, env)).ids].sort((a, b) => a - b)).toEqual([38, 76]);
    expect([...(await runLookup(getRegionsLookup, { hasK8s: true, includeInactive: true }, env)).ids].sort((a, b) => a - b)).toEqual([38, 76, 100, 116]);
    expect((await runLookup(getRegionsLookup, { accessLevel: "edge" }, env)).ids).toEqual([8]);
    expect((await runLookup(getRegionsLookup, { hasDbaas: true }, env)).ids).toEqual([76]);
    expect((await runLookup(getRegionsLookup, { hasKvm: false }, env)).ids).toEqual([]);
  });

  it("getRegion chooses by display name (case-insensitive), slug or id", async () => {
    const env = envFor(sim);
    expect((await runLookup(getRegionLookup, { name: "Frankfurt" }, env)).id).toBe(38);
    expect((await runLookup(getRegionLookup, { name: "luxembourg-2" }, env)).displayName).toBe("Luxembourg-2");
    expect((await runLookup(getRegionLookup, { id: 8 }, env)).displayName).toBe("Singapore");
  });

  it("getRegion chooses the one ACTIVE region with k8s and dbaas", async () => {
    const r = await runLookup(getRegionLookup, { hasK8s: true, hasDbaas: true }, envFor(sim));
    expect(r).toMatchObject({ id: 76, displayName: "Luxembourg-2", state: "ACTIVE", hasK8s: true, accessLevel: "core" });
  });

  it("getRegion fails on several ACTIVE matches, naming them", async () => {
    const e = await failure(runLookup(getRegionLookup, { hasK8s: true }, envFor(sim)));
    expect(e.matches).toBe(2);
    expect(e.message).toMatch(/^getRegion: 2 ACTIVE regions match hasK8s true: /);
    expect(e.message).toContain("Luxembourg-2 (id 76)");
    expect(e.message).toContain("Frankfurt (id 38)");
    expect(e.message).not.toContain("Manassas");
  });

  it("getRegion refuses a region in MAINTENANCE or INACTIVE, saying why", async () => {
    const env = envFor(sim);
    const m = await failure(runLookup(getRegionLookup, { name: "Manassas" }, env));
    expect(m.message).toMatch(/^getRegion: no ACTIVE region matches name "Manassas"; matching but not ACTIVE: Manassas \(id 100, MAINTENANCE\)\. ACTIVE regions: /);
    const t = await failure(runLookup(getRegionLookup, { id: 116, hasK8s: true }, env));
    expect(t.message).toContain("Tokyo-2 (id 116, INACTIVE)");
  });

  it("getRegion fails on no match, listing the ACTIVE candidates", async () => {
    const e = await failure(runLookup(getRegionLookup, { name: "Frankfurt", hasDbaas: true }, envFor(sim)));
    expect(e.message).toMatch(/^getRegion: no ACTIVE region matches name "Frankfurt", hasDbaas true\. ACTIVE regions: /);
    expect(e.message).toContain("Singapore (id 8)");
  });

  it("all region and project lookups of one run share one list request each", async () => {
    const env = envFor(sim);
    await Promise.all([
      runLookup(getRegionsLookup, {}, env),
      runLookup(getRegionsLookup, { hasK8s: true }, env),
      runLookup(getRegionLookup, { name: "Frankfurt" }, env),
      runLookup(getProjectLookup, {}, env),
      runLookup(getProjectsLookup, {}, env),
    ]);
    expect(requestsTo(sim, "/cloud/v1/regions")).toHaveLength(1);
    expect(requestsTo(sim, "/cloud/v1/projects")).toHaveLength(1);
  });

  it("chooseRegion with no regions at all says so", () => {
    expect(() => chooseRegion([], { name: "x" })).toThrow('getRegion: no ACTIVE region matches name "x". ACTIVE regions: none');
  });
});
