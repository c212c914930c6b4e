/**
 * The lookup cache: one request for identical lookups (also when concurrent), separate entries
 * for different arguments, base URLs and keys, failures not cached, results not shared by
 * reference, per-run scopes, and no key in the cache key.
 */
import type { RunningSimulator } from "../../../simulator";
import { NotFoundError } from "../../../provider/api/errors";
import { cacheForScope, keyFingerprint, LookupCache, lookupCacheKey, stableStringify } from "../../../provider/lookups/cache";
import { runLookup } from "../../../provider/lookups/runtime";
import { getProjectsLookup } from "../../../provider/lookups/projects";
import { getK8sClusterLookup } from "../../../provider/lookups/k8s";
import { getResellerTotalsLookup } from "../../../provider/lookups/reseller";
import { newKey } from "../api/helpers";
import { envFor, requestsTo, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => sim.reset());

describe("LookupCache", () => {
  it("shares one in-flight Promise between concurrent identical calls", async () => {
    const cache = new LookupCache();
    let loads = 0;
    let release!: (v: number) => void;
    const load = () => {
      loads++;
      return new Promise<number>((resolve) => (release = resolve));
    };
    const a = cache.get("k", load);
    const b = cache.get("k", load);
    expect(a).toBe(b);
    release(42);
    expect(await Promise.all([a, b])).toEqual([42, 42]);
    expect(loads).toBe(1);
  });

  it("evicts a failed call so the next caller tries again", async () => {
    const cache = new LookupCache();
    let loads = 0;
    await expect(cache.get("k", async () => { loads++; throw new Error("boom"); })).rejects.toThrow("boom");
    await new Promise((r) => setImmediate(r));
    expect(cache.has("k")).toBe(false);
    expect(await cache.get("k", async () => { loads++; return 1; })).toBe(1);
    expect(loads).toBe(2);
  });

  it("keys ignore argument order and undefined members, and never hold the key", () => {
    expect(stableStringify({ b: 1, a: [2, { d: undefined, c: 3 }] })).toBe('{"a":[2,{"c":3}],"b":1}');
    const key = newKey();
    const k = lookupCacheKey("getX", { a: 1 }, "http://127.0.0.1:1", key);
    expect(k).not.toContain(key);
    expect(k).toContain(keyFingerprint(key));
    expect(keyFingerprint(key)).not.toBe(keyFingerprint(newKey()));
  });

  it("gives each run scope its own cache and the same cache for the same scope", () => {
    const s1 = {};
    const s2 = {};
    expect(cacheForScope(s1)).toBe(cacheForScope(s1));
    expect(cacheForScope(s1)).not.toBe(cacheForScope(s2));
    expect(cacheForScope(undefined)).toBe(cacheForScope(undefined));
  });
});

describe("runLookup with the cache", () => {
  it("serves three identical lookups (sequential and concurrent) from one request", async () => {
    const env = envFor(sim);
    const first = await runLookup(getProjectsLookup, {}, env);
    const [second, third] = await Promise.all([runLookup(getProjectsLookup, { includeDeleted: false }, env), runLookup(getProjectsLookup, undefined, env)]);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(requestsTo(sim, "/cloud/v1/projects")).toHaveLength(1);
  });

  it("makes separate requests for different arguments", async () => {
    const env = envFor(sim);
    const base = { metric: "requests" as const, from: "2026-09-01", to: "2026-09-03" };
    await runLookup(getResellerTotalsLookup, { ...base, clientIds: [101] }, env);
    await runLookup(getResellerTotalsLookup, { ...base, clientIds: [101] }, env);
    await runLookup(getResellerTotalsLookup, { ...base, clientIds: [102] }, env);
    expect(requestsTo(sim, "/waap/v1/prebilling/total")).toHaveLength(2);
  });

  it("makes separate requests for a different key against the same base URL", async () => {
    const env = envFor(sim);
    await runLookup(getProjectsLookup, {}, env);
    const other = { ...env, settings: { ...env.settings, apiKey: sim.readOnlyApiKey } };
    await runLookup(getProjectsLookup, {}, other);
    expect(requestsTo(sim, "/cloud/v1/projects")).toHaveLength(2);
  });

  it("does not cache a failure", async () => {
    const env = envFor(sim);
    const args = { projectId: 1, regionId: 76, clusterName: "prod-cluster" };
    const state = sim.state() as unknown as { clusters: { name: string }[] };
    const saved = state.clusters.find((c) => c.name === "prod-cluster");
    state.clusters.splice(state.clusters.indexOf(saved as never), 1);
    const err = await runLookup(getK8sClusterLookup, args, env).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toMatch(/^getK8sCluster: /);
    state.clusters.push(saved as never);
    const cluster = await runLookup(getK8sClusterLookup, args, env);
    expect(cluster.version).toBe("v1.30.4");
    expect(requestsTo(sim, "/cloud/v2/k8s/clusters/1/76/prod-cluster")).toHaveLength(2);
  });

  it("names itself on a copy of the client's error, which stays unprefixed as its cause", async () => {
    const err = (await runLookup(getK8sClusterLookup, { projectId: 1, regionId: 76, clusterName: "no-such-cluster" }, envFor(sim)).catch((e: unknown) => e)) as NotFoundError;
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toMatch(/^getK8sCluster: GET \/cloud\/v2\/k8s\/clusters\/1\/76\/no-such-cluster failed \(404 NotFoundError\)/);
    expect(err.cause).toBeInstanceOf(NotFoundError);
    expect((err.cause as NotFoundError).message).toBe(err.message.slice("getK8sCluster: ".length));
    expect((err.cause as NotFoundError).status).toBe(err.status);
  });

  it("hands every caller its own copy of a cached result", async () => {
    const env = envFor(sim);
    const a = await runLookup(getProjectsLookup, {}, env);
    (a.ids as number[]).push(99);
    const b = await runLookup(getProjectsLookup, {}, env);
    expect(b.ids).toEqual([1, 2, 3]);
  });

  it("caches nothing across environments with different caches (different program runs)", async () => {
    await runLookup(getProjectsLookup, {}, envFor(sim));
    await runLookup(getProjectsLookup, {}, envFor(sim));
    expect(requestsTo(sim, "/cloud/v1/projects")).toHaveLength(2);
  });
});

describe("results", () => {
  it("are plain data of this realm, so pulumi.output keeps arrays as arrays", async () => {
    const r = await runLookup(getProjectsLookup, {}, envFor(sim));
    expect(r.ids instanceof Array).toBe(true);
    expect(r.projects[0] instanceof Object).toBe(true);
  });
});
