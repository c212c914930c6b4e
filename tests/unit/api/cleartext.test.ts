/**
 * The key never travels in cleartext by accident: plain `http://` only to loopback unless the
 * user opts in (client option, config key, environment variable), and redirects are never
 * followed. Plus the Content-Length side of the size cap and a task in a state the spec does
 * not name.
 */
import { createServer, type Server } from "http";
import { ApiError, ConfigurationError, createClient, ResponseFormatError, ResponseTooLargeError } from "../../../provider/api";
import { checkBaseUrl, isLoopback, parseAllowInsecureHttp } from "../../../provider/api/url";
import { clientFromSettings, resolveConnectionSettings } from "../../../provider/settings";
import { TaskTimeoutError } from "../../../provider/tasks/errors";
import { waitForTask, type WaiterClock } from "../../../provider/tasks/waitForTask";
import { closeServer, expectNoSecret, listenOnLoopback, newKey, rejectionOf } from "./helpers";

describe("plain http", () => {
  test("to another host is refused, naming the opt-in, without printing the key", () => {
    const key = newKey();
    let err: unknown;
    try {
      createClient({ baseUrl: "http://api.example-cloud.com", apiKey: key });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toContain("plain http to api.example-cloud.com");
    expect((err as Error).message).toContain("opt in by setting the client option `allowInsecureHttp` to true");
    expectNoSecret(err, key);
  });

  test("is allowed once opted in (boolean or the config's text), and https always", () => {
    expect(createClient({ baseUrl: "http://10.0.0.5:8080/", apiKey: newKey(), allowInsecureHttp: true }).baseUrl).toBe("http://10.0.0.5:8080");
    expect(createClient({ baseUrl: "http://api.internal", apiKey: newKey(), allowInsecureHttp: "TRUE" }).baseUrl).toBe("http://api.internal");
    expect(() => createClient({ baseUrl: "http://api.internal", apiKey: newKey(), allowInsecureHttp: "false" })).toThrow(ConfigurationError);
    expect(createClient({ baseUrl: "https://api.example-cloud.com", apiKey: newKey() }).baseUrl).toBe("https://api.example-cloud.com");
  });

  test("to this machine needs no opt-in (the simulator)", () => {
    for (const url of ["http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9", "http://127.10.0.3"]) expect(checkBaseUrl(url)).toBe(url);
    expect(isLoopback("127.0.0.1.example.com")).toBe(false);
    expect(isLoopback("localhost.example.com")).toBe(false);
    expect(() => checkBaseUrl("http://127.0.0.1.example.com")).toThrow(ConfigurationError);
  });

  test("a mistyped opt-in is refused rather than guessed", () => {
    expect(() => parseAllowInsecureHttp("yes please")).toThrow(/must be true or false/);
    expect(parseAllowInsecureHttp(undefined)).toBe(false);
    expect(parseAllowInsecureHttp("1")).toBe(true);
    expect(parseAllowInsecureHttp("0")).toBe(false);
  });

  test("the config key and the environment variable reach the client through the settings", () => {
    const fromConfig = resolveConnectionSettings((k) => ({ "cloudplatform:allowInsecureHttp": "true", "cloudplatform:baseUrl": "http://10.1.2.3" })[k], {});
    expect(createClient({ baseUrl: fromConfig.baseUrl ?? "", apiKey: newKey(), allowInsecureHttp: fromConfig.allowInsecureHttp }).baseUrl).toBe("http://10.1.2.3");
    const fromEnv = resolveConnectionSettings(() => undefined, { CLOUDPLATFORM_BASE_URL: "http://10.1.2.3", CLOUDPLATFORM_ALLOW_INSECURE_HTTP: "true" });
    expect(fromEnv.allowInsecureHttp).toBe("true");
    const none = resolveConnectionSettings(() => undefined, { CLOUDPLATFORM_BASE_URL: "http://10.1.2.3", CLOUDPLATFORM_API_KEY: newKey() });
    expect(() => clientFromSettings(none)).toThrow(ConfigurationError);
    expect(() => clientFromSettings(none)).toThrow(
      "opt in by setting the Pulumi config cloudplatform:allowInsecureHttp (or the environment variable CLOUDPLATFORM_ALLOW_INSECURE_HTTP) to true",
    );
  });
});

describe("against a loopback server", () => {
  let server: Server;
  let baseUrl = "";
  let handler: (path: string, res: import("http").ServerResponse) => void = () => undefined;
  let hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      hits.push(req.url ?? "");
      handler(req.url ?? "", res);
    });
    baseUrl = await listenOnLoopback(server);
  });
  afterAll(() => closeServer(server));
  beforeEach(() => {
    hits = [];
  });

  test("a redirect is not followed: a clear error naming where it pointed, the target never called", async () => {
    handler = (path, res) => {
      if (path.startsWith("/elsewhere")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: 1, email: "a@b.c", status: "active" }));
        return;
      }
      res.writeHead(302, { location: `${baseUrl}/elsewhere/iam/clients/me` }).end();
    };
    const key = newKey();
    const err = await rejectionOf(createClient({ baseUrl, apiKey: key }).iam.clients.me());
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(302);
    expect(err.message).toContain("GET /iam/clients/me failed (302 ApiError): redirected to");
    expect(err.message).toContain("/elsewhere/iam/clients/me");
    expect(err.message).toContain("redirects are not followed");
    expect(hits).toEqual(["/iam/clients/me"]);
    expectNoSecret(err, key);
  });

  test("a declared Content-Length over the cap fails before the body is read", async () => {
    handler = (_path, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": 10_000 });
      res.write(`{"message":"`);
      // The rest never comes: only the declared length can end this call.
    };
    const err = await rejectionOf(createClient({ baseUrl, apiKey: newKey(), maxResponseBytes: 1000 }).waap.reseller.ping());
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.message).toContain("GET /waap/ping returned 200 with an unexpected body: the body exceeds the client's maxResponseBytes of 1000 bytes");
    expect((err as ResponseTooLargeError).received).toBe("10000 bytes (Content-Length)");
    expect(hits).toHaveLength(1);
  });

  test("an error body is kept only cut short", async () => {
    handler = (_path, res) => {
      res.writeHead(400, { "content-type": "text/plain" }).end("E".repeat(200_000));
    };
    const err = (await rejectionOf(createClient({ baseUrl, apiKey: newKey() }).waap.reseller.ping())) as ApiError;
    expect(typeof err.body).toBe("string");
    expect((err.body as string).length).toBeLessThanOrEqual(2003);
    expect(err.message.length).toBeLessThan(1000);
  });

  describe("a task in a state the spec does not name", () => {
    /** A clock whose sleeps pass at once: the deadline is virtual, the polls are real requests. */
    function virtualClock(): WaiterClock {
      let t = 0;
      return { now: () => t, sleep: async (ms) => void (t += ms) };
    }
    const answerStates = (states: readonly string[]) => {
      handler = (_path, res) => {
        const state = states[Math.min(hits.length - 1, states.length - 1)];
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "t-1", task_type: "upgrade_k8s_cluster", state }));
      };
    };
    const client = () => createClient({ baseUrl, apiKey: newKey(), retry: { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0 }, sleep: async () => undefined });

    test("is read as 'not finished yet' (kept as text): the wait polls on until the task finishes", async () => {
      answerStates(["PAUSED", "PAUSED", "RESUMING", "FINISHED"]);
      const task = await waitForTask(client(), "t-1", { timeoutMs: 3_600_000, clock: virtualClock() });
      expect(task.state).toBe("FINISHED");
      expect(hits).toHaveLength(4);
    });

    test("that never changes: polled to the deadline, then TaskTimeoutError naming the state as sent (not a format error)", async () => {
      answerStates(["PAUSED"]);
      const err = await rejectionOf(waitForTask(client(), "t-1", { timeoutMs: 120_000, clock: virtualClock() }));
      expect(err).toBeInstanceOf(TaskTimeoutError);
      expect(err).not.toBeInstanceOf(ResponseFormatError);
      expect((err as TaskTimeoutError).lastState).toBe("PAUSED");
      expect((err as TaskTimeoutError).polls).toBe(hits.length);
      expect(hits.length).toBeGreaterThan(3);
    });
  });
});
