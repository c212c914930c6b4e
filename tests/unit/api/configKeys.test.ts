/**
 * The API client names its own options; the Pulumi config keys and environment variables are
 * named by provider/settings.ts, which tells the client how a Pulumi user sets each option. So
 * provider/api (the public `pulumi-cloudplatform/api`) holds no config key name, and the
 * provider's messages still name the key and the variable.
 */
import * as fs from "fs";
import * as path from "path";
import { AuthenticationError, ConfigurationError } from "../../../provider/api";
import { clientFromSettings, type ConnectionSettings } from "../../../provider/settings";
import { closeServer, listenOnLoopback, newKey, rejectionOf } from "./helpers";
import { createServer } from "http";

const API_DIR = path.resolve(__dirname, "../../../provider/api");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith(".ts") ? [p] : [];
  });
}

/** Config keys (`cloudplatform:apiKey`), their variables and the `pulumi config` command. */
const CONFIG_NAMES = /cloudplatform:[A-Za-z]|CLOUDPLATFORM_[A-Z]|pulumi config/g;

test("no file of provider/api names a Pulumi config key or environment variable", () => {
  const found = sources(API_DIR).flatMap((file) =>
    [...fs.readFileSync(file, "utf8").matchAll(CONFIG_NAMES)].map((m) => `${path.relative(API_DIR, file)}: ${m[0]}`),
  );
  expect(sources(API_DIR).length).toBeGreaterThan(20);
  expect(found).toEqual([]);
});

test("the grep finds a config key name where one is written", () => {
  expect("set the Pulumi config `cloudplatform:apiKey` or CLOUDPLATFORM_API_KEY".match(CONFIG_NAMES)).toEqual(["cloudplatform:a", "CLOUDPLATFORM_A"]);
});

describe("through the settings, the messages name the config key and the variable", () => {
  const settings = (s: Partial<ConnectionSettings>): ConnectionSettings => ({ baseUrl: "http://127.0.0.1:1", apiKey: newKey(), ...s });

  test.each([
    ["no base URL", { baseUrl: undefined }, /No API base URL is configured .*the Pulumi config `cloudplatform:baseUrl` or the environment variable CLOUDPLATFORM_BASE_URL\./],
    ["a base URL that is no URL", { baseUrl: "not a url" }, /not a valid URL.*`cloudplatform:baseUrl` or the environment variable CLOUDPLATFORM_BASE_URL/],
    ["no key", { apiKey: undefined }, /No API key is configured: set the Pulumi config `cloudplatform:apiKey` .*CLOUDPLATFORM_API_KEY\./],
    ["a limit out of range", { maxConcurrentRequests: "0" }, /maxConcurrentRequests must be .*`cloudplatform:maxConcurrentRequests` or the environment variable CLOUDPLATFORM_MAX_CONCURRENT_REQUESTS/],
    ["a mistyped opt-in", { baseUrl: "http://10.1.2.3", allowInsecureHttp: "yes" }, /cloudplatform:allowInsecureHttp \(or the environment variable CLOUDPLATFORM_ALLOW_INSECURE_HTTP\) must be true or false/],
  ])("%s", (_what, setting, words) => {
    expect(() => clientFromSettings(settings(setting))).toThrow(ConfigurationError);
    expect(() => clientFromSettings(settings(setting))).toThrow(words);
  });

  test("a 401's hint and a redirect's hint", async () => {
    let redirect = false;
    const server = createServer((req, res) => {
      req.resume();
      if (redirect) res.writeHead(302, { location: "http://127.0.0.1:9/elsewhere" }).end();
      else res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ message: "Invalid token" }));
    });
    const baseUrl = await listenOnLoopback(server);
    try {
      const client = clientFromSettings(settings({ baseUrl }));
      const denied = await rejectionOf(client.iam.clients.me());
      expect(denied).toBeInstanceOf(AuthenticationError);
      expect(denied.message).toMatch(/set it with the Pulumi config `cloudplatform:apiKey` \(as a secret: pulumi config set --secret cloudplatform:apiKey \.\.\.\) or the environment variable CLOUDPLATFORM_API_KEY\./);
      redirect = true;
      const moved = await rejectionOf(client.iam.clients.me());
      expect(moved.message).toContain("set the Pulumi config `cloudplatform:baseUrl` or the environment variable CLOUDPLATFORM_BASE_URL to the address that answers");
    } finally {
      await closeServer(server);
    }
  });
});
