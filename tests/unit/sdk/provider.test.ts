/**
 * `Provider` registers as the `cloudplatform` plugin's provider, with its settings sent the way a
 * generated Node SDK sends them (non-string settings as JSON text, the key a secret), and the
 * plugin version of this package unless the program names one. Under Pulumi's mocks, whose
 * `newResource` shows what the engine would receive; tests/integration/multiAccountTs.test.ts
 * runs it through a real engine and plugin.
 */
import * as pulumi from "@pulumi/pulumi";
import { Provider } from "../../../sdk/nodejs";
import { VERSION } from "../../../provider/api/version";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}
const registered: Registered[] = [];

pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered.push({ type: args.type, name: args.name, inputs: args.inputs });
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: () => ({}),
  },
  "provider-project",
  "provider-stack",
  false,
);

/** The value of an Output and whether it is secret. */
async function secretAndValue<T>(o: pulumi.Output<T>): Promise<{ secret: boolean; value: T }> {
  const impl = o as unknown as { promise(): Promise<T>; isSecret: Promise<boolean> };
  return { secret: await impl.isSecret, value: await impl.promise() };
}

/** Waits for the registrations of the resources made so far. */
async function registrationsOf(...resources: pulumi.CustomResource[]): Promise<void> {
  await Promise.all(resources.map((r) => (r.id as unknown as { promise(): Promise<unknown> }).promise()));
}

describe("Provider", () => {
  test("registers as pulumi:providers:cloudplatform with the settings as a generated SDK sends them", async () => {
    const p = new Provider("staging", {
      baseUrl: "http://127.0.0.1:9",
      apiKey: "k-staging",
      allowInsecureHttp: true,
      maxConcurrentRequests: pulumi.output(4),
      resellerPaths: "public",
    });
    await registrationsOf(p);
    const r = registered.find((x) => x.name === "staging");
    expect(r?.type).toBe("pulumi:providers:cloudplatform");
    expect(r?.inputs).toEqual({
      baseUrl: "http://127.0.0.1:9",
      apiKey: { [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig, value: "k-staging" },
      allowInsecureHttp: "true",
      maxConcurrentRequests: "4",
      resellerPaths: "public",
    });
    expect((p as unknown as { getPackage(): string }).getPackage()).toBe("cloudplatform");
    expect(Provider.isInstance(p)).toBe(true);
  });

  test("marks the key secret even when it is given in plain text", async () => {
    const p = new Provider("plain-key", { baseUrl: "http://127.0.0.1:9", apiKey: "k-plain" });
    expect(await secretAndValue(p.apiKey)).toEqual({ secret: true, value: "k-plain" });
    expect((await secretAndValue(p.baseUrl)).secret).toBe(false);
  });

  test("sends no setting that was left out (each falls back to its environment variable)", async () => {
    const p = new Provider("empty");
    await registrationsOf(p);
    expect(registered.find((x) => x.name === "empty")?.inputs).toEqual({});
  });

  test("asks for this package's plugin version unless the program names one", () => {
    const own = new Provider("own-version", {});
    const named = new Provider("named-version", {}, { version: "9.9.9" });
    expect((own as unknown as { __version?: string }).__version).toBe(VERSION);
    expect((named as unknown as { __version?: string }).__version).toBe("9.9.9");
  });

  test("is told apart from other packages' providers and other resources", () => {
    class Other extends pulumi.ProviderResource {
      constructor() {
        super("aws", "aws-west", {});
      }
    }
    expect(Provider.isInstance(new Other())).toBe(false);
    expect(Provider.isInstance({})).toBe(false);
    expect(Provider.isInstance(undefined)).toBe(false);
  });
});
