import * as path from "path";
import { parseOptions } from "../../../provider/drift/options";
import { planNextStep } from "../../../provider/resources/k8s/plan";
import { REFUSAL_CODES, refusalCodesIn, withRefusalCode } from "../../../provider/resources/refusals";
import { StorageEventAdoptionError, StorageEventConflictError } from "../../../provider/resources/storage/events";
import { REPORT_SCHEMA } from "./schemaCheck";

test("defaults: the current directory's selected stack, two at a time, listings bounded at 5m and previews at 30m, no files", () => {
  expect(parseOptions([], "/work")).toEqual({ cwds: ["/work"], stacks: [], allStacks: false, parallel: 2, listTimeoutMs: 300_000, previewTimeoutMs: 1_800_000, list: false, help: false });
});

test.each([
  ["90s", 90_000],
  ["5m", 300_000],
  ["1h30m", 5_400_000],
  ["2m5s", 125_000],
  ["45", 45_000],
  ["24h", 86_400_000],
])("--list-timeout and --preview-timeout take durations: %s", (text, ms) => {
  expect(parseOptions(["--list-timeout", text, "--preview-timeout", text])).toMatchObject({ listTimeoutMs: ms, previewTimeoutMs: ms });
});

test.each(["0", "0s", "", "5 m", "1.5m", "-1m", "25h", "30d", "5ms", "m", "1s1m"])("a duration %j is refused with the flag and the form named", (text) => {
  const form = `must be a duration from 1s to 24h such as 90s, 5m or 1h30m (a bare number is seconds), got ${JSON.stringify(text)}`;
  expect(() => parseOptions([`--list-timeout=${text}`])).toThrow(`--list-timeout ${form}`);
  expect(() => parseOptions([`--preview-timeout=${text}`])).toThrow(`--preview-timeout ${form}`);
});

test("repeatable --cwd and --stack, shard, parallel and the report files (relative to the current directory)", () => {
  const o = parseOptions(["--cwd", "a", "--cwd", "/b", "--stack", "eu", "--stack", "us", "--shard", "2/3", "--parallel", "4", "--json", "r.json", "--markdown", "r.md", "--junit", "r.xml"], "/w");
  expect(o).toEqual({
    cwds: [path.resolve("/w/a"), "/b"],
    stacks: ["eu", "us"],
    allStacks: false,
    shard: { index: 2, count: 3 },
    parallel: 4,
    jsonFile: "/w/r.json",
    markdownFile: "/w/r.md",
    junitFile: "/w/r.xml",
    listTimeoutMs: 300_000,
    previewTimeoutMs: 1_800_000,
    list: false,
    help: false,
  });
});

test("wrong usage is refused with a message naming the flag", () => {
  expect(() => parseOptions(["--stack", "a", "--all-stacks"])).toThrow("--stack and --all-stacks exclude each other");
  expect(() => parseOptions(["--parallel", "0"])).toThrow('--parallel must be a positive integer, got "0"');
  expect(() => parseOptions(["--shard", "4/3"])).toThrow("--shard must be I/N");
  expect(() => parseOptions(["--bogus"])).toThrow(/bogus/);
  expect(() => parseOptions(["stray"])).toThrow(/stray/);
});

test("refusal codes: carried at the end of a message, found only when known, each listed in the report schema", () => {
  const message = withRefusalCode("CLOUDPLATFORM_DOWNGRADE", "version v1 is a downgrade");
  expect(message).toBe("version v1 is a downgrade [CLOUDPLATFORM_DOWNGRADE]");
  expect(refusalCodesIn(`${message} (set CLOUDPLATFORM_API_KEY) [CLOUDPLATFORM_NOPE] ${message}`)).toEqual(["CLOUDPLATFORM_DOWNGRADE"]);
  expect(REPORT_SCHEMA.$defs.refusal.properties.code.enum).toEqual(Object.keys(REFUSAL_CODES));
});

test("each refusal message ends with its code; two declarations of one event are no refusal", () => {
  const plan = (current: string, target: string, permitted: string[] = []) => planNextStep({ clusterName: "c", current, target, permitted, allowMultiStep: false });
  const reasonOf = (d: ReturnType<typeof plan>) => (d.kind === "rejected" ? d.reason : "");
  expect(reasonOf(plan("v1.32.1", "v1.30.4"))).toMatch(/is a downgrade: .* \[CLOUDPLATFORM_DOWNGRADE\]$/);
  expect(reasonOf(plan("v1.30.4", "v1.32.1", ["v1.31.2"]))).toMatch(/cannot be reached .* \[CLOUDPLATFORM_UPGRADE_UNREACHABLE\]$/);
  expect(reasonOf(plan("latest", "v1.32.1"))).toMatch(/\[CLOUDPLATFORM_VERSION_UNPLANNABLE\]$/);
  const wanted = { name: "reaching_used_space" as const, storageName: "s", bytes: 1 };
  const existing = { uuid: "u1", name: "reaching_used_space", storageName: "s", bytes: 2 } as never;
  expect(refusalCodesIn(new StorageEventConflictError(wanted, existing, "exists").message)).toEqual(["CLOUDPLATFORM_EVENT_NOT_OWNED"]);
  expect(refusalCodesIn(new StorageEventConflictError(wanted, undefined, "declared-twice").message)).toEqual([]);
  expect(refusalCodesIn(new StorageEventAdoptionError({ ...wanted, adoptUuid: "u9" }, undefined).message)).toEqual(["CLOUDPLATFORM_ADOPTION_MISMATCH"]);
});
