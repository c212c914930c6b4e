/**
 * The `__provider` of the dynamic resources and the contract with `@pulumi/pulumi`'s
 * dynamic-provider host it relies on: what the classes register (the type token existing
 * stacks' URNs hold, and our own one-line text), that the text holds no key and no HTTP library,
 * and that the host's way of loading it reaches the handlers of its type. Texts written by
 * 0.1.0 (`pulumi.dynamic.Resource`'s serialized closures, fixtures taken from that version) must
 * keep working with this runtime: they are in the state of every existing stack.
 *
 * The whole lifecycle through the real host of the oldest and newest `@pulumi/pulumi` is in
 * tests/integration/compat.test.ts; a stack written by the previous package and run with this
 * one in tests/integration/stateUpgrade.test.ts. Needs `dist/` built (the text loads the
 * runtime through the package's self-link, as the host does from the program's node_modules).
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { K8sClusterUpgrade, StorageEvent } from "../../../sdk/nodejs";
import { dynamicTypeToken, providerSource } from "../../../sdk/nodejs/internal/dynamicRegistration";

/** The loader the dynamic-provider host uses for `__provider` text (a dependency of @pulumi/pulumi). */
const requireFromString: (code: string) => { handler(): pulumi.dynamic.ResourceProvider } = require("require-from-string");

const TYPES = ["StorageEvent", "K8sClusterUpgrade"] as const;
const KEY = "sk-serialized-provider-test-key-0123456789";
const METHODS = ["check", "configure", "create", "delete", "diff", "read", "update"];
const FIXTURES = path.join(__dirname, "fixtures", "provider-text-0.1.0");

/** What the host does with `__provider`: load the text, call `handler()`. */
function loadAsTheHostDoes(text: string): pulumi.dynamic.ResourceProvider {
  return requireFromString(text).handler();
}

/** Check failures of each type for inputs that are wrong for it (no API call needed). */
async function expectHandlersOf(typeName: (typeof TYPES)[number], provider: pulumi.dynamic.ResourceProvider): Promise<void> {
  if (typeName === "StorageEvent") {
    const checked = await provider.check!({}, { name: "reaching_used_space", storageName: "s", count: 1 });
    expect(checked.failures?.map((f) => f.property)).toContain("count");
  } else {
    const checked = await provider.check!({}, { storageName: "s" });
    expect(checked.failures?.map((f) => f.property)).toEqual(expect.arrayContaining(["projectId", "regionId", "clusterName", "version"]));
  }
}

test("the host still loads __provider with require-from-string and calls its handler()", () => {
  // If @pulumi/pulumi changes how it loads the text, this fails before any stack does.
  const host = fs.readFileSync(require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"), "utf8");
  expect(host).toContain('require("require-from-string")');
  expect(host).toMatch(/requireFromString\(providerString\)\.handler\(\)/);
  expect(host).toMatch(/providerCache\[providerString\]/);
});

describe.each(TYPES)("%s", (typeName) => {
  test("its provider text is one short line with no key and no HTTP library", () => {
    process.env.CLOUDPLATFORM_API_KEY = KEY;
    try {
      const text = providerSource(typeName);
      const bytes = Buffer.byteLength(text);
      process.stdout.write(`__provider of ${typeName}: ${bytes} bytes\n`);
      expect(bytes).toBeLessThan(100);
      expect(text).not.toContain("\n");
      expect(text).not.toContain(KEY);
      expect(text).not.toMatch(/axios|fetch|apiKey|CLOUDPLATFORM_API_KEY/);
      expect(providerSource(typeName)).toBe(text);
    } finally {
      delete process.env.CLOUDPLATFORM_API_KEY;
    }
  });

  test("loaded as the host loads it, the text reaches the handlers of its own type", async () => {
    const provider = loadAsTheHostDoes(providerSource(typeName));
    expect(Object.keys(provider).sort()).toEqual(METHODS);
    await expectHandlersOf(typeName, provider);
  });

  test("the text 0.1.0 stored in existing stacks still reaches the same handlers", async () => {
    const old = fs.readFileSync(path.join(FIXTURES, `${typeName}.js`), "utf8");
    expect(old).toContain("__f0"); // the serializer's closures, not our one-liner
    const provider = loadAsTheHostDoes(old);
    expect(Object.keys(provider).sort()).toEqual(METHODS);
    await expectHandlersOf(typeName, provider);
  });
});

describe("registration", () => {
  const registered: pulumi.runtime.MockResourceArgs[] = [];
  beforeAll(() => {
    pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          registered.push(args);
          return { id: `${args.name}-id`, state: args.inputs };
        },
        call: () => ({}),
      },
      "project",
      "stack",
      true,
    );
  });

  test("each class registers the type token of pulumi.dynamic.Resource and its own text as __provider", async () => {
    const event = new StorageEvent("e", { name: "reaching_used_space", storageName: "s", bytes: 1 });
    const upgrade = new K8sClusterUpgrade("u", { projectId: 1, regionId: 76, clusterName: "c", version: "v1.31.2" });
    await new Promise<void>((resolve) => pulumi.all([event.urn, upgrade.urn]).apply(() => resolve()));
    // Existing stacks' URNs hold this token: a different one would replace every resource.
    expect(dynamicTypeToken("StorageEvent")).toBe("pulumi-nodejs:dynamic/cloudplatform:StorageEvent");
    expect(dynamicTypeToken("K8sClusterUpgrade")).toBe("pulumi-nodejs:dynamic/cloudplatform:K8sClusterUpgrade");
    const byName = new Map(registered.map((r) => [r.name, r]));
    expect(byName.get("e")?.type).toBe(dynamicTypeToken("StorageEvent"));
    expect(byName.get("u")?.type).toBe(dynamicTypeToken("K8sClusterUpgrade"));
    expect(byName.get("e")?.inputs).toEqual({ name: "reaching_used_space", storageName: "s", bytes: 1, __provider: providerSource("StorageEvent") });
    expect(byName.get("u")?.inputs.__provider).toBe(providerSource("K8sClusterUpgrade"));
  });
});
