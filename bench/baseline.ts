/**
 * The baseline: a trivial dynamic resource whose provider answers at once and calls nothing.
 *
 * Why: `pulumi preview`/`up` cost a lot by themselves (CLI start, language host, one
 * dynamic-provider process, state writes). Timing StorageEvents against this resource, in the
 * same run on the same machine, isolates what the provider adds.
 */
import * as pulumi from "@pulumi/pulumi";

/** A no-op provider: create returns at once; diff compares the one input. */
export const noopProvider: pulumi.dynamic.ResourceProvider = {
  async check(_olds: any, news: any) {
    return { inputs: news };
  },
  async diff(_id: string, olds: any, news: any) {
    return { changes: olds.value !== news.value };
  },
  async create(inputs: any) {
    return { id: `noop-${inputs.value}`, outs: { value: inputs.value } };
  },
  async read(id: string, props: any) {
    return { id, props: { value: props.value } };
  },
  async update(_id: string, _olds: any, news: any) {
    return { outs: { value: news.value } };
  },
  async delete() {
    return;
  },
};

/** The baseline resource (`pulumi-nodejs:dynamic/bench:Noop`). */
export class Noop extends pulumi.dynamic.Resource {
  declare readonly value: pulumi.Output<string>;
  constructor(name: string, args: { value: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions) {
    super(noopProvider, name, { value: args.value }, opts, "bench", "Noop");
  }
}
