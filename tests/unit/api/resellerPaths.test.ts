/**
 * Where the WAAP reseller endpoints are called: the API reference's `/waap/reseller/...` paths by
 * default; with the client option `resellerPaths: "public"` (the provider: config
 * `cloudplatform:resellerPaths` or CLOUDPLATFORM_RESELLER_PATHS), the public OpenAPI's and the
 * Python SDK's `/waap/v1/prebilling/total/{metric}` and `/waap/ping`. Any other value fails at
 * creation, naming the allowed values and where to set it. The simulator serves the reference's
 * paths only, so a request at the public ones is seen in its log (and answered 404).
 */
import { ConfigurationError, createClient } from "../../../provider/api";
import { clientFromSettings, resolveConnectionSettings } from "../../../provider/settings";
import { startSimulator } from "../../../simulator";
import { newKey } from "./helpers";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey() });
});
afterAll(() => sim.close());

const QUERY = { from: "2026-09-01", to: "2026-09-03" };

async function pathsCalled(client: ReturnType<typeof createClient>): Promise<string[]> {
  const before = sim.requests().length;
  await client.waap.reseller.totals("domains", QUERY).catch(() => undefined);
  await client.waap.reseller.ping().catch(() => undefined);
  return [...new Set(sim.requests().slice(before).map((r) => r.path))];
}

test.each([
  { name: "the default", options: {}, paths: ["/waap/reseller/v1/prebilling/total/domains", "/waap/reseller/ping"] },
  { name: "resellerPaths spec", options: { resellerPaths: "spec" }, paths: ["/waap/reseller/v1/prebilling/total/domains", "/waap/reseller/ping"] },
  { name: "resellerPaths public", options: { resellerPaths: "public" }, paths: ["/waap/v1/prebilling/total/domains", "/waap/ping"] },
])("$name calls $paths", async ({ options, paths }) => {
  expect(await pathsCalled(createClient({ baseUrl: sim.url, apiKey: sim.apiKey, ...options }))).toEqual(paths);
});

test("the provider takes it from the config or CLOUDPLATFORM_RESELLER_PATHS, and names both when it is wrong", async () => {
  const fromEnv = resolveConnectionSettings(() => undefined, { CLOUDPLATFORM_BASE_URL: sim.url, CLOUDPLATFORM_API_KEY: sim.apiKey, CLOUDPLATFORM_RESELLER_PATHS: "public" });
  expect(await pathsCalled(clientFromSettings(fromEnv))).toEqual(["/waap/v1/prebilling/total/domains", "/waap/ping"]);
  const config: Record<string, string> = { "cloudplatform:baseUrl": sim.url, "cloudplatform:apiKey": sim.apiKey, "cloudplatform:resellerPaths": "v2" };
  const wrong = resolveConnectionSettings((k) => config[k], {});
  expect(() => clientFromSettings(wrong)).toThrow(ConfigurationError);
  expect(() => clientFromSettings(wrong)).toThrow(
    'resellerPaths must be one of spec, public, got "v2": set the Pulumi config `cloudplatform:resellerPaths` or the environment variable CLOUDPLATFORM_RESELLER_PATHS.',
  );
  expect(() => createClient({ baseUrl: sim.url, apiKey: sim.apiKey, resellerPaths: "v2" })).toThrow("set the client option `resellerPaths`");
});
