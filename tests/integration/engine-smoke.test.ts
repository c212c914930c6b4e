/**
 * Engine smoke test: proves the offline CLI, the language host, the dynamic-provider launcher
 * and the harness work together before any provider code is involved.
 */
import * as pulumi from "@pulumi/pulumi";
import { createTestStack, TestStack, writeProgramDir } from "./harness";

interface Inputs {
  value: string;
}

const echoProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Inputs) {
    return { id: `echo-${inputs.value}`, outs: { value: inputs.value } };
  },
  async diff(_id: string, olds: Inputs, news: Inputs) {
    return { changes: olds.value !== news.value };
  },
  async update(_id: string, _olds: Inputs, news: Inputs) {
    return { outs: { value: news.value } };
  },
  async read(id: string, props: Inputs) {
    return { id, props: { value: props.value } };
  },
};

class Echo extends pulumi.dynamic.Resource {
  declare readonly value: pulumi.Output<string>;
  constructor(name: string, args: { value: pulumi.Input<string> }) {
    super(echoProvider, name, { value: args.value }, undefined, "smoke", "Echo");
  }
}

describe("Pulumi engine smoke test", () => {
  let t: TestStack | undefined;
  afterAll(async () => {
    await t?.cleanup();
  });

  it("runs up, no-change preview and refresh, an in-place update, and destroy", async () => {
    t = await createTestStack({
      projectName: "engine-smoke",
      program: async () => {
        const config = new pulumi.Config();
        const echo = new Echo("echo", { value: config.require("value") });
        return { value: echo.value, sealed: pulumi.secret(echo.value) };
      },
      config: { "engine-smoke:value": { value: "one" } },
    });
    const { stack } = t;

    const up = await stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.value).toEqual({ value: "one", secret: false });
    // The harness reads outputs with --show-secrets only when one is secret: this one is.
    expect(up.outputs.sealed).toEqual({ value: "one", secret: true });
    expect(up.summary.resourceChanges).toEqual({ create: 2 });

    const preview = await stack.preview({ color: "never" });
    expect(preview.changeSummary).toEqual({ same: 2 });

    const refresh = await stack.refresh({ color: "never" });
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });

    await stack.setConfig("engine-smoke:value", { value: "two" });
    const update = await stack.up({ color: "never" });
    expect(update.summary.resourceChanges).toEqual({ same: 1, update: 1 });
    expect(update.outputs.value?.value).toBe("two");
    expect(update.outputs.sealed).toEqual({ value: "two", secret: true });

    const destroy = await stack.destroy({ color: "never" });
    expect(destroy.summary.resourceChanges).toEqual({ delete: 2 });
  });

  it("runs a program that reads config on a stack that has none (the language host passes {} as the config)", async () => {
    const bare = await createTestStack({
      projectName: "engine-smoke-no-config",
      writeProgram: (dir) =>
        writeProgramDir(
          dir,
          "engine-smoke-no-config",
          'const pulumi = require("@pulumi/pulumi");\nconst config = new pulumi.Config();\nmodule.exports = { value: config.get("value") ?? "unset", keys: Object.keys(JSON.parse(process.env.PULUMI_CONFIG || "null")).length };\n',
        ),
    });
    try {
      const up = await bare.stack.up({ color: "never" });
      expect(up.summary.result).toBe("succeeded");
      expect(up.outputs.value?.value).toBe("unset");
      expect(up.outputs.keys?.value).toBe(0);
    } finally {
      await bare.cleanup();
    }
  });
});
