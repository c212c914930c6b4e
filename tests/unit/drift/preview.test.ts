import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { checkedRun, readEventLog } from "../../../provider/drift/preview";

let dir: string;
beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-events-"))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test.each([
  ["two whole events", '{"sequence":0}\n{"sequence":1}\n', [0, 1]],
  ["a last line cut short by a killed CLI", '{"sequence":0}\n{"sequence":1}\n{"seque', [0, 1]],
  ["blank lines", '\n{"sequence":0}\n\n', [0]],
])("the event log is read one JSON event a line: %s", (name, text, sequences) => {
  const file = path.join(dir, `${name}.jsonl`);
  fs.writeFileSync(file, text);
  expect(readEventLog(file).map((e) => e.sequence)).toEqual(sequences);
});

test("a run that never wrote its event log has no events", () => {
  expect(readEventLog(path.join(dir, "missing.jsonl"))).toEqual([]);
});

const SUMMARY = { sequence: 9, timestamp: 0, summaryEvent: {} } as unknown as EngineEvent;
const PRELUDE = { sequence: 0, timestamp: 0, preludeEvent: { config: {} } } as EngineEvent;

test.each([
  ["a run that succeeded with its summary", [PRELUDE, SUMMARY], undefined, undefined],
  ["a run that succeeded without a summary (events lost): never clean", [PRELUDE], undefined, "the preview ended, but its engine events could not be read (the event log has no summary)"],
  ["a run that succeeded with no events at all", [], undefined, "the preview ended, but its engine events could not be read (the event log has no summary)"],
  ["a run that failed keeps its own failure", [PRELUDE], "error: no stack named 'x' found", "error: no stack named 'x' found"],
] as const)("%s", (_, events, failure, expected) => {
  expect(checkedRun([...events], failure).failure).toBe(expected);
});
