/**
 * Shards: N CI jobs split the stacks between them, each stack in exactly one shard.
 *
 * Why a hash of `project/stack` rather than a position in a list: every job lists the stacks on
 * its own, and a stack added, removed or listed in another order must not move the others
 * between shards (a stack checked twice or never). sha256 is stable across runs and machines.
 */
import { createHash } from "crypto";

/** One shard of a run: `index` of `count`, 1-based as written on the command line (`2/3`). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Parses `I/N` (1 <= I <= N); throws a usage message otherwise. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new Error(`--shard must be I/N with 1 <= I <= N (e.g. 2/3), got ${JSON.stringify(text)}`);
  return { index, count };
}

/** The shard (1-based) a stack key belongs to among `count`. */
export function shardOf(key: string, count: number): number {
  const n = createHash("sha256").update(key).digest().readUInt32BE(0);
  return (n % count) + 1;
}

/** The items of `shard`, order kept; every item is in exactly one of the `count` shards. */
export function inShard<T>(items: readonly T[], keyOf: (item: T) => string, shard: Shard | undefined): T[] {
  return shard ? items.filter((item) => shardOf(keyOf(item), shard.count) === shard.index) : [...items];
}
