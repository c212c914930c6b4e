/**
 * The plugin's resource operations over the Pulumi-free lifecycles, in plain values (the gRPC
 * server translates structs and secrets around them). Both paths behave alike, so this mirrors
 * `dynamic/adapter.ts`; what the plugin adds: previews of create and update (the engine asks a
 * plugin that supports them for the outputs it will have), and import (a read with no state).
 */
import { guardOf } from "../adapters/errorScrubbing";
import { lifecycleOf, RESOURCE_DEFINITIONS, RESOURCE_TYPE_NAMES, type LifecycleOverrides } from "../adapters/resourceDefinitions";
import { unknownInputs, UNKNOWN_VALUE } from "../adapters/unknownValues";
import type { CheckFailure, LifecycleContext, ResourceLifecycle } from "../resources/lifecycle";
import { TOKEN_PREFIX } from "./functions";
import { computedOutputsOf } from "./packageSchema";

/** How the outputs of one resource type relate to its inputs. */
export interface OutputShape {
  /** Outputs the provider computes (not inputs): unknown in a preview of create. */
  readonly computed: readonly string[];
  /** Computed outputs an update never changes (the server's id): kept in a preview of update. */
  readonly keptOnUpdate: readonly string[];
}

/** The plugin's operations on one resource type, in plain values. */
export interface PluginResourceHandlers {
  check(ctx: LifecycleContext, news: Record<string, unknown>): Promise<{ inputs: Record<string, unknown>; failures: CheckFailure[] }>;
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ changes: boolean; replaces: string[]; diffs: string[]; deleteBeforeReplace: boolean }>;
  create(ctx: LifecycleContext, inputs: Record<string, unknown>, preview: boolean): Promise<{ id: string; outs: Record<string, unknown> }>;
  read(ctx: LifecycleContext, id: string, outs: Record<string, unknown>): Promise<{ id: string; outs: Record<string, unknown>; inputs: Record<string, unknown> } | undefined>;
  update(ctx: LifecycleContext, id: string, olds: Record<string, unknown>, news: Record<string, unknown>, preview: boolean): Promise<Record<string, unknown>>;
  delete(ctx: LifecycleContext, id: string, outs: Record<string, unknown>): Promise<void>;
}

/**
 * The handlers of one lifecycle. `shape` names the computed outputs (from the schema);
 * `secrets` lists what must never appear in an error (the API key).
 */
export function toPluginHandlers<I, O>(lifecycle: ResourceLifecycle<I, O>, shape: OutputShape, secrets: () => readonly string[]): PluginResourceHandlers {
  const guard = guardOf(secrets);
  const asRecord = (v: unknown): Record<string, unknown> => v as Record<string, unknown>;
  return {
    check: (ctx, news) =>
      guard(async () => {
        const result = await lifecycle.check(ctx, news, unknownInputs(news));
        return { inputs: asRecord(result.inputs), failures: result.failures };
      }),
    diff: (id, olds, news) =>
      guard(async () => {
        const result = await lifecycle.diff(id, olds as O, news as I);
        const diffs = result.changes ? (result.diffs ?? []) : [];
        return { changes: result.changes, replaces: result.replaces ?? [], diffs, deleteBeforeReplace: result.deleteBeforeReplace ?? false };
      }),
    create: (ctx, inputs, preview) =>
      guard(async () => {
        if (preview) return { id: "", outs: { ...inputs, ...Object.fromEntries(shape.computed.map((k) => [k, UNKNOWN_VALUE])) } };
        const { id, outs } = await lifecycle.create(ctx, inputs as I);
        return { id, outs: asRecord(outs) };
      }),
    read: (ctx, id, outs) =>
      guard(async () => {
        const result = await lifecycle.read(ctx, id, outs as O);
        return result ? { id: result.id, outs: asRecord(result.outs), inputs: asRecord(result.inputs) } : undefined;
      }),
    update: (ctx, id, olds, news, preview) =>
      guard(async () => {
        if (preview) {
          const computed = shape.computed.map((k) => [k, shape.keptOnUpdate.includes(k) ? olds[k] : UNKNOWN_VALUE]);
          return { ...news, ...Object.fromEntries(computed) };
        }
        return asRecord(await lifecycle.update(ctx, id, olds as O, news as I));
      }),
    delete: (ctx, id, outs) => guard(() => lifecycle.delete(ctx, id, outs as O)),
  };
}

/** The handlers of every resource type by token, `overrides` serving instead of production lifecycles. */
export function resourceHandlersByToken(overrides: LifecycleOverrides, secrets: () => readonly string[]): ReadonlyMap<string, PluginResourceHandlers> {
  return new Map(
    RESOURCE_TYPE_NAMES.map((name) => {
      const token = `${TOKEN_PREFIX}${name}`;
      const shape = { computed: computedOutputsOf(token), keptOnUpdate: RESOURCE_DEFINITIONS[name].keptOnUpdate };
      return [token, toPluginHandlers(lifecycleOf(name, overrides), shape, secrets)];
    }),
  );
}
