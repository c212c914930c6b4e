import { inShard, parseShard, shardOf } from "../../../provider/drift/shard";

const KEYS = Array.from({ length: 200 }, (_, i) => `project-${i % 7}/stack-${i}`);

test("the shards of N split the stacks: each in exactly one, none empty for many stacks", () => {
  for (const count of [1, 2, 3, 5]) {
    const shards = Array.from({ length: count }, (_, i) => inShard(KEYS, (k) => k, { index: i + 1, count }));
    expect(shards.flat().sort()).toEqual([...KEYS].sort());
    for (const s of shards) expect(s.length).toBeGreaterThan(KEYS.length / count / 2);
  }
});

test("a stack's shard depends on its key only: not on the order or the other stacks", () => {
  const reversed = [...KEYS].reverse().slice(50);
  for (const k of reversed) expect(inShard(reversed, (x) => x, { index: shardOf(k, 3), count: 3 })).toContain(k);
  expect(shardOf("shop/prod", 3)).toBe(shardOf("shop/prod", 3));
});

test("the shard of a key is fixed across versions (sha256 of project/stack)", () => {
  // Pinned: a change here moves stacks between the CI jobs of every user.
  const keys = ["shop/prod", "shop/staging", "infra/eu-1", "infra/us-1"];
  expect(keys.map((k) => shardOf(k, 3))).toEqual([3, 2, 2, 1]);
  expect(keys.map((k) => shardOf(k, 2))).toEqual([1, 2, 2, 2]);
});

test("I/N is parsed and checked", () => {
  expect(parseShard("2/3")).toEqual({ index: 2, count: 3 });
  for (const bad of ["0/3", "4/3", "3", "a/b", "1/0", "-1/2"]) expect(() => parseShard(bad)).toThrow(/--shard must be I\/N/);
  expect(inShard(["a", "b"], (x) => x, undefined)).toEqual(["a", "b"]);
});
