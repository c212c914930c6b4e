/**
 * A lookup's invoke options (`opts`) are honoured or refused, never dropped: an explicit provider
 * of package `cloudplatform` (given directly or held by a parent) reaches the engine's invoke
 * with that provider, as a generated SDK's lookup does; `version` and `pluginDownloadURL` go
 * through the engine too; a provider of another package, something that is no provider, and an
 * option lookups do not have fail before any call, naming what to do instead (the Promise form
 * rejects, the Output form throws at the call). Under Pulumi's mocks, whose `call` shows which
 * provider an invoke went to; tests/integration/lookupOptions.test.ts runs the honoured options
 * through a real engine and plugin.
 */
import * as pulumi from "@pulumi/pulumi";
import { getProject, getProjectOutput, LookupOptionError } from "../../../sdk/nodejs";
import { optionsNeedEngine } from "../../../sdk/nodejs/lookups/engineInvoke";

const calls: { token: string; provider?: string }[] = [];

pulumi.runtime.setMocks(
  {
    newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    call: (args) => {
      calls.push({ token: args.token, provider: args.provider });
      return { id: 1, name: "p", isDefault: true };
    },
  },
  "options-project",
  "options-stack",
  false,
);

beforeEach(() => {
  calls.length = 0;
});

/** A provider resource of any package, as a user or a generated SDK declares one. */
class PackageProvider extends pulumi.ProviderResource {
  constructor(pkg: string, name: string) {
    super(pkg, name, {});
  }
}

const account = new PackageProvider("cloudplatform", "account");
const aws = new PackageProvider("aws", "aws");
const component = new pulumi.ComponentResource("test:index:Team", "team", {}, { providers: { cloudplatform: account } });
const plainParent = new pulumi.ComponentResource("test:index:Plain", "plain");
const ACCOUNT_REF = "urn:pulumi:options-stack::options-project::pulumi:providers:cloudplatform::account::account-id";

/** The value of an Output (its other promises observed, so a failure is no unhandled rejection). */
function valueOf<T>(o: pulumi.Output<T>): Promise<T> {
  const impl = o as unknown as { promise(): Promise<T>; allResources(): Promise<unknown> };
  impl.allResources().catch(() => undefined);
  return impl.promise();
}

// [case, opts, the provider reference the invoke carries]
const HONOURED: [string, pulumi.InvokeOptions, string][] = [
  ["an explicit cloudplatform provider", { provider: account }, ACCOUNT_REF],
  ["a parent holding a cloudplatform provider", { parent: component }, ACCOUNT_REF],
  ["a parent without one (the default provider, as a generated SDK's lookup)", { parent: plainParent }, ""],
  ["version", { version: "0.1.0" }, ""],
  ["pluginDownloadURL", { pluginDownloadURL: "http://127.0.0.1:9/plugins/" }, ""],
];

describe("honoured options reach the invoke with their provider", () => {
  test.each(HONOURED)("%s: the Promise form", async (_case, opts, provider) => {
    await getProject({}, opts);
    expect(calls).toEqual([{ token: "cloudplatform:index:getProject", provider }]);
  });

  test.each(HONOURED)("%s: the Output form", async (_case, opts, provider) => {
    await valueOf(getProjectOutput({}, opts));
    expect(calls).toEqual([{ token: "cloudplatform:index:getProject", provider }]);
  });
});

const PROVIDER_INSTEAD =
  'pass a provider of package "cloudplatform" (this package\'s Provider class, or any pulumi.ProviderResource of package "cloudplatform"), or leave it out to use this stack\'s cloudplatform config';

// [case, opts, the whole message]
const REFUSED: [string, unknown, string][] = [
  ["a provider of another package", { provider: aws }, `getProject: opts.provider is a provider of package "aws"; ${PROVIDER_INSTEAD}`],
  ["a provider that is no resource", { provider: { apiKey: "k" } }, `getProject: opts.provider is not a provider resource; ${PROVIDER_INSTEAD}`],
  [
    "dependsOn, which lookups do not take",
    { dependsOn: [account] },
    "getProject: opts.dependsOn is not an option of a lookup; lookups take provider, parent, version and pluginDownloadURL (to wait for a resource, pass one of its outputs as an argument of the Output form)",
  ],
  ["a parent that is no resource", { parent: "team" }, "getProject: opts.parent is not a Pulumi resource; pass a resource (or leave parent out)"],
  ["an empty version", { version: "" }, 'getProject: opts.version must be a non-empty string; got ""'],
];

describe("refused options fail before any call, naming what to do instead", () => {
  test.each(REFUSED)("%s: the Promise form rejects", async (_case, opts, message) => {
    const err = await getProject({}, opts as pulumi.InvokeOptions).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LookupOptionError);
    expect((err as Error).message).toBe(message);
    expect(calls).toEqual([]);
  });

  test.each(REFUSED)("%s: the Output form throws at the call", (_case, opts, message) => {
    let thrown: unknown;
    try {
      getProjectOutput({}, opts as pulumi.InvokeOptions);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(LookupOptionError);
    expect((thrown as Error).message).toBe(message);
    expect(calls).toEqual([]);
  });
});

// Outside mocks, which options send a lookup to the engine (the rest run it in the program).
// [case, through the engine, opts]
const ROUTES: [string, boolean, unknown][] = [
  ["no options", false, undefined],
  ["empty options", false, {}],
  ["async (no effect in Pulumi 3)", false, { async: true }],
  ["a parent without a cloudplatform provider", false, { parent: plainParent }],
  ["an explicit cloudplatform provider", true, { provider: account }],
  ["a parent holding one", true, { parent: component }],
  ["version", true, { version: "0.1.0" }],
  ["pluginDownloadURL", true, { pluginDownloadURL: "http://127.0.0.1:9/" }],
];

test.each(ROUTES)("%s: through the engine is %s", (_case, engine, opts) => {
  expect(optionsNeedEngine("getProject", opts)).toBe(engine);
});
