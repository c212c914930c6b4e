/**
 * The SDK layer outside a Pulumi engine: connection settings come from Pulumi config first and
 * the CLOUDPLATFORM_* environment second, the public functions run the same lookups, and a
 * missing configuration names both ways to set it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RunningSimulator } from "../../../simulator";
import { getCurrentClient, getProject, getResellerTotals, LookupArgumentError } from "../../../sdk/nodejs";
import { requestsTo, start } from "./helpers";

let sim: RunningSimulator;
const saved = { key: process.env.CLOUDPLATFORM_API_KEY, url: process.env.CLOUDPLATFORM_BASE_URL };
beforeAll(async () => {
  sim = await start();
});
afterAll(async () => {
  await sim.close();
  restore();
});
beforeEach(() => sim.reset());

function restore(): void {
  for (const [name, value] of [["CLOUDPLATFORM_API_KEY", saved.key], ["CLOUDPLATFORM_BASE_URL", saved.url]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

describe("sdk lookups outside an engine", () => {
  afterEach(restore);

  it("use the environment when no Pulumi config is set", async () => {
    process.env.CLOUDPLATFORM_BASE_URL = sim.url;
    process.env.CLOUDPLATFORM_API_KEY = sim.apiKey;
    expect((await getCurrentClient()).id).toBe(7350925);
    expect((await getProject()).id).toBe(1);
  });

  it("prefer Pulumi config over the environment", async () => {
    process.env.CLOUDPLATFORM_BASE_URL = "http://127.0.0.1:9"; // nothing listens there
    process.env.CLOUDPLATFORM_API_KEY = "wrong-key";
    pulumi.runtime.setConfig("cloudplatform:baseUrl", sim.url);
    pulumi.runtime.setConfig("cloudplatform:apiKey", sim.apiKey);
    try {
      expect((await getCurrentClient()).email).toBe("platform@example.com");
    } finally {
      pulumi.runtime.setAllConfig({});
    }
  });

  it("name both settings when neither is configured", async () => {
    delete process.env.CLOUDPLATFORM_BASE_URL;
    delete process.env.CLOUDPLATFORM_API_KEY;
    await expect(getCurrentClient()).rejects.toThrow(/^getCurrentClient: No API base URL is configured.*cloudplatform:baseUrl.*CLOUDPLATFORM_BASE_URL/);
  });

  it("reject bad arguments before any request", async () => {
    process.env.CLOUDPLATFORM_BASE_URL = sim.url;
    process.env.CLOUDPLATFORM_API_KEY = sim.apiKey;
    const err = await getResellerTotals({ metric: "bogus" as never, from: "2026-09-01", to: "2026-09-02" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LookupArgumentError);
    expect((err as Error).message).toBe('getResellerTotals: metric must be one of domains, volume, requests, requests_clean; got "bogus"');
    expect(requestsTo(sim, "/waap")).toEqual([]);
  });
});
