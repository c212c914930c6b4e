/**
 * Which provider manages a resource of the TypeScript package: given a `cloudplatform` provider
 * (`opts.provider`, or a parent whose `providers` hold one) it registers as the plugin's resource
 * (`cloudplatform:index:<Type>`, the inputs as declared, no `__provider`) with that provider;
 * without one it registers exactly as before (the dynamic token, `__provider`); a provider of
 * another package, or something that is no provider, is refused before anything is registered,
 * naming the option and what to pass. Under Pulumi's mocks, whose `newResource` shows what the
 * engine would receive; tests/integration/multiAccountTs.test.ts runs two accounts for real.
 */
import * as pulumi from "@pulumi/pulumi";
import { CloudPlatformError } from "../../../provider/api/errors";
import { K8sClusterUpgrade, Provider, ResourceOptionError, StorageEvent } from "../../../sdk/nodejs";
import { providerSource } from "../../../sdk/nodejs/internal/dynamicRegistration";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  provider?: string;
}
const registered: Registered[] = [];

pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered.push({ type: args.type, name: args.name, inputs: args.inputs, provider: args.provider });
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: () => ({}),
  },
  "registration-project",
  "registration-stack",
  false,
);

/** What `newResource` received for the resource named `name`, once it is registered. */
async function registrationOf(resource: pulumi.CustomResource, name: string): Promise<Registered | undefined> {
  await (resource.id as unknown as { promise(): Promise<unknown> }).promise();
  return registered.find((r) => r.name === name);
}

/** The URNs of a resource's aliases (internal to `@pulumi/pulumi`, read for this check only). */
async function aliasUrns(resource: pulumi.Resource): Promise<string[]> {
  const aliases = (resource as unknown as { __aliases: pulumi.Input<string>[] }).__aliases;
  return Promise.all(aliases.map((a) => (pulumi.output(a) as unknown as { promise(): Promise<string> }).promise()));
}

const staging = new Provider("staging", { baseUrl: "http://127.0.0.1:9", apiKey: "k-staging" });
const STAGING_REF = "urn:pulumi:registration-stack::registration-project::pulumi:providers:cloudplatform::staging::staging-id";
const EVENT = { name: "reaching_used_space" as const, storageName: "media", bytes: 1000 };
const DECLARED = { name: "reaching_used_space", storageName: "media", bytes: 1000 };
const URN_PREFIX = "urn:pulumi:registration-stack::registration-project::";

/** A provider resource of another package, as its SDK declares one. */
class AwsProvider extends pulumi.ProviderResource {
  constructor(name: string) {
    super("aws", name, {});
  }
}

describe("a resource without a cloudplatform provider", () => {
  test("registers as before: the dynamic type token and the __provider input", async () => {
    const e = new StorageEvent("plain", EVENT);
    const r = await registrationOf(e, "plain");
    expect(r?.type).toBe("pulumi-nodejs:dynamic/cloudplatform:StorageEvent");
    expect(r?.inputs).toEqual({ ...DECLARED, __provider: providerSource("StorageEvent") });
    expect(r?.provider ?? "").toBe("");
  });

  test("under a parent that holds no cloudplatform provider, too", async () => {
    const team = new pulumi.ComponentResource("test:index:Plain", "plain-team");
    const r = await registrationOf(new StorageEvent("plain-child", EVENT, { parent: team }), "plain-child");
    expect(r?.type).toBe("pulumi-nodejs:dynamic/cloudplatform:StorageEvent");
  });

  test("is aliased to its URN under the plugin's type token, for a later move to a provider", async () => {
    const e = new StorageEvent("aliased", EVENT);
    expect(await aliasUrns(e)).toContain(`${URN_PREFIX}cloudplatform:index:StorageEvent::aliased`);
  });
});

describe("a resource given a cloudplatform provider", () => {
  test("registers as the plugin's StorageEvent, with that provider and the inputs as declared", async () => {
    const e = new StorageEvent("explicit", EVENT, { provider: staging });
    const r = await registrationOf(e, "explicit");
    expect(r).toEqual({ type: "cloudplatform:index:StorageEvent", name: "explicit", inputs: DECLARED, provider: STAGING_REF });
    expect(await aliasUrns(e)).toContain(`${URN_PREFIX}pulumi-nodejs:dynamic/cloudplatform:StorageEvent::explicit`);
  });

  test("registers as the plugin's K8sClusterUpgrade", async () => {
    const u = new K8sClusterUpgrade("upgrade", { projectId: 1, regionId: 76, clusterName: "c", version: "v1.31.2" }, { provider: staging });
    const r = await registrationOf(u, "upgrade");
    expect(r).toEqual({
      type: "cloudplatform:index:K8sClusterUpgrade",
      name: "upgrade",
      inputs: { projectId: 1, regionId: 76, clusterName: "c", version: "v1.31.2" },
      provider: STAGING_REF,
    });
  });

  test("held by its parent's providers", async () => {
    const team = new pulumi.ComponentResource("test:index:Team", "team", {}, { providers: { cloudplatform: staging } });
    const r = await registrationOf(new StorageEvent("child", EVENT, { parent: team }), "child");
    expect(r?.type).toBe("cloudplatform:index:StorageEvent");
    expect(r?.provider).toBe(STAGING_REF);
    expect(r?.inputs).not.toHaveProperty("__provider");
  });

  test("any pulumi.ProviderResource of package cloudplatform will do", async () => {
    class Own extends pulumi.ProviderResource {
      constructor() {
        super("cloudplatform", "own", {});
      }
    }
    const r = await registrationOf(new StorageEvent("own-provider", EVENT, { provider: new Own() }), "own-provider");
    expect(r?.type).toBe("cloudplatform:index:StorageEvent");
  });
});

describe("a provider that cannot manage the resource", () => {
  const INSTEAD =
    'pass a provider of package "cloudplatform" (this package\'s Provider class, or any pulumi.ProviderResource of package "cloudplatform"), or leave it out to use this stack\'s cloudplatform config';

  test.each([
    ["of another package", () => new AwsProvider("aws-west"), `StorageEvent "wrong": opts.provider is a provider of package "aws"; ${INSTEAD}`],
    ["that is no resource", () => ({ apiKey: "k" }), `StorageEvent "wrong": opts.provider is not a provider resource; ${INSTEAD}`],
  ])("is refused: a provider %s", (_case, provider, message) => {
    const before = registered.length;
    let thrown: unknown;
    try {
      new StorageEvent("wrong", EVENT, { provider: provider() as pulumi.ProviderResource });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ResourceOptionError);
    expect(thrown).toBeInstanceOf(CloudPlatformError);
    expect((thrown as Error).message).toBe(message);
    expect(thrown).toMatchObject({ resource: "wrong", option: "provider" });
    expect(registered.slice(before).filter((r) => r.name === "wrong")).toEqual([]);
  });

  test("is refused on K8sClusterUpgrade too", () => {
    expect(() => new K8sClusterUpgrade("wrong-upgrade", { projectId: 1, regionId: 76, clusterName: "c", version: "v1.31.2" }, { provider: new AwsProvider("aws-east") })).toThrow(
      /^K8sClusterUpgrade "wrong-upgrade": opts\.provider is a provider of package "aws"; pass a provider of package "cloudplatform"/,
    );
  });
});
