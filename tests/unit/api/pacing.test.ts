/**
 * Pacing (provider/api/pacing.ts): the limit on requests in flight and the shared pause per API
 * family after a 429, first on the pacer itself with fake attempts, a fake clock and a fake
 * sleep, then through `createClient` against fake HTTP servers (one that counts what is in
 * flight, one that answers 429 once), on jest's fake clock where a pause is waited out; a
 * queued request's abort, and one pacer per API host.
 */
import * as http from "http";
import type { AddressInfo } from "net";
import { ConfigurationError, createClient, DEFAULT_MAX_CONCURRENT_REQUESTS, RequestAbortedError } from "../../../provider/api";
import { familyOf, parseMaxConcurrentRequests, RequestPacer, sharedPacer } from "../../../provider/api/pacing";
import { LookupCache } from "../../../provider/lookups/cache";
import { getRegionsLookup } from "../../../provider/lookups/regions";
import { runLookup } from "../../../provider/lookups/runtime";
import { resolveConnectionSettings } from "../../../provider/settings";
import { startSimulator } from "../../../simulator";
import { closeServer, listenOnLoopback, newKey } from "./helpers";

/** A promise resolved from outside. */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every settled promise's continuations run. */
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Turns of the event loop (I/O included) until `done`; fails after many. */
async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000 && !done(); i++) await flush();
  expect(done()).toBe(true);
}

/** A fake clock whose sleep advances it (and records each wait). */
function fakeTime() {
  let t = 1_000_000;
  const waits: number[] = [];
  return {
    now: () => t,
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
      t += ms;
    },
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const RATE_LIMITED = Symbol("429");
const pauseOf = (err: unknown) => (err === RATE_LIMITED ? 5000 : undefined);

describe("the limit on requests in flight", () => {
  test("no more than the limit run at once; the rest start in order as slots free", async () => {
    const pacer = new RequestPacer({ maxConcurrent: 3 });
    const gates = Array.from({ length: 10 }, () => deferred());
    const started: number[] = [];
    let inFlight = 0;
    let most = 0;
    const all = gates.map((g, i) =>
      pacer.send("storage", async () => {
        started.push(i);
        most = Math.max(most, ++inFlight);
        await g.promise;
        inFlight--;
        return i;
      }, pauseOf),
    );
    await flush();
    expect(started).toEqual([0, 1, 2]);
    expect(pacer.state()).toMatchObject({ inFlight: 3, queued: 7 });
    gates[1]?.resolve();
    await flush();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates) g.resolve();
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(3);
    expect(pacer.state()).toMatchObject({ inFlight: 0, queued: 0 });
  });

  test("a failed attempt frees its slot and its error reaches the caller unchanged", async () => {
    const pacer = new RequestPacer({ maxConcurrent: 1 });
    const boom = new Error("boom");
    await expect(pacer.send("cloud", async () => Promise.reject(boom), pauseOf)).rejects.toBe(boom);
    await expect(pacer.send("cloud", async () => "next", pauseOf)).resolves.toBe("next");
    expect(pacer.state()).toMatchObject({ inFlight: 0, queued: 0, pausedUntil: {} });
  });

  test("the default is 8; a bad setting names the option and the allowed values", () => {
    expect(DEFAULT_MAX_CONCURRENT_REQUESTS).toBe(8);
    expect(parseMaxConcurrentRequests(undefined)).toBe(8);
    expect(parseMaxConcurrentRequests("")).toBe(8);
    expect(parseMaxConcurrentRequests(" 4 ")).toBe(4);
    expect(parseMaxConcurrentRequests(1)).toBe(1);
    for (const bad of ["0", "-1", "2.5", "eight", 257, 0]) {
      expect(() => parseMaxConcurrentRequests(bad)).toThrow(ConfigurationError);
      expect(() => parseMaxConcurrentRequests(bad)).toThrow(
        /^maxConcurrentRequests must be an integer from 1 to 256 \(default 8\), got .*: set the client option `maxConcurrentRequests`\.$/,
      );
    }
    expect(() => createClient({ baseUrl: "http://127.0.0.1:1", apiKey: "k", maxConcurrentRequests: "many" })).toThrow(/got "many"/);
  });
});

describe("the shared pause after a 429", () => {
  test("one Retry-After holds every request of that family, not the others", async () => {
    const time = fakeTime();
    const pacer = new RequestPacer({ maxConcurrent: 8, now: time.now, sleep: time.sleep });
    const sent: string[] = [];
    await expect(
      pacer.send("storage", async () => {
        sent.push("storage 1");
        throw RATE_LIMITED;
      }, pauseOf),
    ).rejects.toBe(RATE_LIMITED);
    expect(pacer.state().pausedUntil).toEqual({ storage: time.now() + 5000 });

    // Another family goes at once; the same family waits out the whole pause before it is sent.
    await pacer.send("cloud", async () => sent.push("cloud"), pauseOf);
    expect(time.waits).toEqual([]);
    time.advance(1000);
    await pacer.send("storage", async () => sent.push(`storage 2 at +${time.waits.reduce((a, b) => a + b, 0)}`), pauseOf);
    expect(time.waits).toEqual([4000]);
    expect(sent).toEqual(["storage 1", "cloud", "storage 2 at +4000"]);
    expect(pacer.state().pausedUntil).toEqual({});
  });

  test("the retry of the request that got the 429 waits it in its own loop: the pause does not hold it", async () => {
    const time = fakeTime();
    const pacer = new RequestPacer({ maxConcurrent: 8, now: time.now, sleep: time.sleep });
    const request = Symbol("the limited request");
    await expect(pacer.send("storage", async () => Promise.reject(RATE_LIMITED), pauseOf, { request })).rejects.toBe(RATE_LIMITED);
    await pacer.send("storage", async () => undefined, pauseOf, { request });
    expect(time.waits).toEqual([]);
    // Every other request of the family is held.
    await pacer.send("storage", async () => undefined, pauseOf, { request: Symbol("another") });
    expect(time.waits).toEqual([5000]);
  });

  test("a pause another request's 429 set later holds the retry of the first one", async () => {
    const time = fakeTime();
    const pacer = new RequestPacer({ maxConcurrent: 8, now: time.now, sleep: time.sleep });
    const first = Symbol("first");
    const second = Symbol("second");
    const answered = deferred();
    const inFlight = pacer.send("storage", () => answered.promise.then(() => Promise.reject(RATE_LIMITED)), pauseOf, { request: second });
    await flush();
    await expect(pacer.send("storage", async () => Promise.reject(RATE_LIMITED), pauseOf, { request: first })).rejects.toBe(RATE_LIMITED);
    time.advance(2000);
    answered.resolve();
    await expect(inFlight).rejects.toBe(RATE_LIMITED);
    // The first request's loop has waited its own 5 s; the second's pause runs 2 s longer.
    time.advance(3000);
    await pacer.send("storage", async () => undefined, pauseOf, { request: first });
    expect(time.waits).toEqual([2000]);
  });

  test("a pause that starts while a request waits for a slot sends it only after the pause", async () => {
    const time = fakeTime();
    const pacer = new RequestPacer({ maxConcurrent: 1, now: time.now, sleep: time.sleep });
    const first = deferred();
    const holder = pacer.send("storage", () => first.promise.then(() => Promise.reject(RATE_LIMITED)), pauseOf);
    let queuedSent = -1;
    const queued = pacer.send("storage", async () => {
      queuedSent = time.now();
    }, pauseOf);
    await flush();
    const pausedAt = time.now();
    first.resolve();
    await expect(holder).rejects.toBe(RATE_LIMITED);
    await queued;
    expect(queuedSent - pausedAt).toBe(5000);
  });

  test("a pause longer than a request's remaining budget holds it only that long; then the server decides", async () => {
    const time = fakeTime();
    const pacer = new RequestPacer({ maxConcurrent: 8, now: time.now, sleep: time.sleep });
    await expect(pacer.send("storage", async () => Promise.reject(RATE_LIMITED), pauseOf)).rejects.toBe(RATE_LIMITED);
    const holds: number[] = [];
    await pacer.send("storage", async () => undefined, pauseOf, { maxPauseMs: 2000, onHold: (ms) => holds.push(ms) });
    expect(time.waits).toEqual([2000]);
    expect(holds).toEqual([2000]);
    // A request with no budget left (a lookup whose rate-limit budget is 0) is not held at all.
    await pacer.send("storage", async () => undefined, pauseOf, { maxPauseMs: 0, onHold: (ms) => holds.push(ms) });
    expect(time.waits).toEqual([2000]);
    expect(holds).toEqual([2000]);
  });

  test("the delegation-status endpoint is a family of its own, so its rate limit holds only itself", () => {
    expect(familyOf("/dns/v2/analyze/example.com/delegation-status")).toBe("dns-delegation");
    expect(familyOf("/dns/v2/zones")).toBe("dns");
    expect(familyOf("/storage/notifications/v1/events")).toBe("storage");
    expect(familyOf("/cloud/v1/tasks/abc")).toBe("cloud");
    // The family is the product the error parser reads: a path outside the products is "other".
    expect(familyOf("/somewhere/else")).toBe("other");
  });
});

describe("cancelling a queued request, and one pacer per host", () => {
  test("a request queued for a slot leaves the queue at once when its signal aborts", async () => {
    const pacer = new RequestPacer({ maxConcurrent: 1 });
    const first = deferred<string>();
    const running = pacer.send("cloud", () => first.promise, pauseOf);
    const ac = new AbortController();
    let ran = false;
    const queued = pacer.send("cloud", async () => (ran = true), pauseOf, { signal: ac.signal });
    const third = pacer.send("cloud", async () => "third", pauseOf);
    await flush();
    expect(pacer.state()).toMatchObject({ inFlight: 1, queued: 2 });
    ac.abort(new Error("stop"));
    await expect(queued).rejects.toThrow("stop");
    expect(pacer.state()).toMatchObject({ inFlight: 1, queued: 1 });
    first.resolve("first");
    await expect(running).resolves.toBe("first");
    await expect(third).resolves.toBe("third");
    expect(ran).toBe(false);
    expect(pacer.state()).toMatchObject({ inFlight: 0, queued: 0 });
  });

  test("through the client: a request waiting for a slot rejects with RequestAbortedError, the held one goes on", async () => {
    const release = deferred();
    let hits = 0;
    const server = http.createServer((req, res) => {
      hits++;
      req.resume();
      void release.promise.then(() => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ id: 1, email: "ops@example.com", status: "active" }));
      });
    });
    const url = await listenOnLoopback(server);
    try {
      const c = createClient({ baseUrl: url, apiKey: "k", maxConcurrentRequests: 1 });
      const held = c.iam.clients.me();
      const ac = new AbortController();
      const queued = c.withSignal(ac.signal).iam.clients.me();
      await waitFor(() => hits === 1 && sharedPacer(url, 1).state().queued === 1);
      ac.abort();
      await expect(queued).rejects.toBeInstanceOf(RequestAbortedError);
      expect(sharedPacer(url, 1).state()).toMatchObject({ inFlight: 1, queued: 0 });
      release.resolve();
      await expect(held).resolves.toMatchObject({ id: 1 });
      expect(hits).toBe(1);
    } finally {
      await closeServer(server);
    }
  });

  test("clients of one host share one pacer whatever the path; the smallest limit asked for wins", () => {
    const a = sharedPacer("http://127.0.0.1:7001", 5);
    expect(sharedPacer("http://127.0.0.1:7001/v2/", 3)).toBe(a);
    expect(a.maxConcurrent).toBe(3);
    expect(sharedPacer("http://127.0.0.1:7001", 8)).toBe(a);
    expect(a.maxConcurrent).toBe(3);
    expect(sharedPacer("http://127.0.0.1:7002", 8)).not.toBe(a);
  });

  test("a lowered limit holds queued requests until fewer than it are in flight", async () => {
    const pacer = new RequestPacer({ maxConcurrent: 2 });
    const one = deferred();
    const two = deferred();
    const started: string[] = [];
    const first = pacer.send("cloud", () => one.promise, pauseOf);
    const second = pacer.send("cloud", () => two.promise, pauseOf);
    const third = pacer.send("cloud", async () => started.push("third"), pauseOf);
    pacer.lowerLimit(1);
    one.resolve();
    await first;
    await flush();
    expect(started).toEqual([]);
    expect(pacer.state()).toMatchObject({ inFlight: 1, queued: 1 });
    two.resolve();
    await second;
    await third;
    expect(started).toEqual(["third"]);
  });
});

describe("through the client", () => {
  /** A fake API: answers `{}` after `holdMs`, counting the requests in flight. */
  async function countingServer(holdMs: number) {
    let inFlight = 0;
    let most = 0;
    let total = 0;
    const server = http.createServer((req, res) => {
      total++;
      most = Math.max(most, ++inFlight);
      req.resume();
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ id: 1, email: "ops@example.com", status: "active" }));
      }, holdMs);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, most: () => most, total: () => total, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  /** A fake API whose first answer is a 429 asking for `retryAfter` seconds, every later one the current client. */
  async function limitedOnce(retryAfter: string) {
    const sent: string[] = [];
    const server = http.createServer((req, res) => {
      req.resume();
      sent.push(req.url ?? "");
      if (sent.length === 1) {
        res.writeHead(429, { "Content-Type": "application/json", "Retry-After": retryAfter });
        res.end(JSON.stringify({ message: "slow down" }));
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ id: 1, email: "ops@example.com", status: "active" }));
    });
    const url = await listenOnLoopback(server);
    return { url, sent, close: () => closeServer(server) };
  }

  test("clients of one base URL share the limit (a resource's client and a lookup's)", async () => {
    const api = await countingServer(20);
    try {
      const a = createClient({ baseUrl: api.url, apiKey: "k", maxConcurrentRequests: 3 });
      const b = createClient({ baseUrl: api.url, apiKey: "k", maxConcurrentRequests: "3" });
      await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).iam.clients.me()));
      expect(api.total()).toBe(24);
      expect(api.most()).toBe(3);
    } finally {
      await api.close();
    }
  });

  test("without a setting at most 8 are in flight", async () => {
    const api = await countingServer(20);
    try {
      const c = createClient({ baseUrl: api.url, apiKey: "k" });
      await Promise.all(Array.from({ length: 30 }, () => c.iam.clients.me()));
      expect(api.total()).toBe(30);
      expect(api.most()).toBe(8);
    } finally {
      await api.close();
    }
  });

  test("after a 429 no request of that family is sent until its Retry-After has passed (fake clock)", async () => {
    const { url, sent, close } = await limitedOnce("1");
    // The pacer's and the client's clock and sleep: jest's fake Date and timers. Sockets stay real.
    jest.useFakeTimers({ doNotFake: ["nextTick", "setImmediate", "queueMicrotask"] });
    try {
      const c = createClient({ baseUrl: url, apiKey: "k", maxConcurrentRequests: 1 });
      const lists = Promise.all(Array.from({ length: 5 }, () => c.iam.clients.me()));
      const pacer = sharedPacer(url, 1);
      await waitFor(() => "iam" in pacer.state().pausedUntil && pacer.state().inFlight === 0);
      // Without the shared pause the four queued lists would go out right after the 429.
      await jest.advanceTimersByTimeAsync(999);
      expect(pacer.state().inFlight).toBe(0);
      expect(sent).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      jest.useRealTimers();
      await expect(lists).resolves.toHaveLength(5);
      expect(sent).toHaveLength(6);
    } finally {
      jest.useRealTimers();
      await close();
    }
  });

  test("a client on an injected clock waits out a 429's pause on that clock, with a pacer of its own", async () => {
    const { url, sent, close } = await limitedOnce("20");
    let now = Date.parse("2026-10-01T00:00:00Z");
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
      now += ms;
    };
    try {
      const c = createClient({ baseUrl: url, apiKey: "k", retry: { budgetMs: 5_000 }, now: () => now, sleep });
      await expect(c.iam.clients.me()).rejects.toThrow(/slow down/);
      const started = Date.now();
      // The 20 s pause was set on the injected clock: the next request waits it out there (a
      // pause of at most its 5 s budget), never on the host's shared pacer in real time.
      await expect(c.iam.clients.me()).resolves.toMatchObject({ id: 1 });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(waits).toEqual([5_000]);
      expect(sharedPacer(url, undefined).state().pausedUntil).toEqual({});
      expect(sent).toHaveLength(2);
    } finally {
      await close();
    }
  });

  test("a 429 whose Retry-After is beyond the budget fails that request at once and holds the next one only for its own budget", async () => {
    const { url, sent, close } = await limitedOnce("3600");
    try {
      const c = createClient({ baseUrl: url, apiKey: "k", retry: { budgetMs: 300 } });
      await expect(c.iam.clients.me()).rejects.toThrow(/slow down/);
      // Without the bound this waits out the whole hour of the first answer's Retry-After.
      await expect(c.iam.clients.me()).resolves.toMatchObject({ id: 1 });
      expect(sent).toHaveLength(2);
    } finally {
      await close();
    }
  });
});

describe("where the limit comes from", () => {
  test("config first, then CLOUDPLATFORM_MAX_CONCURRENT_REQUESTS, else unset (the default 8)", () => {
    const config: Record<string, string> = { "cloudplatform:maxConcurrentRequests": "3" };
    const env = { CLOUDPLATFORM_MAX_CONCURRENT_REQUESTS: "5" };
    expect(resolveConnectionSettings((k) => config[k], env).maxConcurrentRequests).toBe("3");
    expect(resolveConnectionSettings(() => undefined, env).maxConcurrentRequests).toBe("5");
    expect(resolveConnectionSettings(() => undefined, {}).maxConcurrentRequests).toBeUndefined();
  });

  test("a bad value fails the lookup before any request, naming the setting", async () => {
    const sim = await startSimulator({ apiKey: newKey() });
    try {
      const env = { settings: { baseUrl: sim.url, apiKey: sim.apiKey, maxConcurrentRequests: "0" }, cache: new LookupCache() };
      await expect(runLookup(getRegionsLookup, {}, env)).rejects.toThrow(/maxConcurrentRequests must be an integer from 1 to 256/);
      expect(sim.requests()).toEqual([]);
    } finally {
      await sim.close();
    }
  });
});
