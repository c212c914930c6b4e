/**
 * The conformance fixtures: answers written from public material nobody here wrote (the
 * platform's OpenAPI files, its Python SDK models, the older Go SDK's test fixtures, its guides),
 * each in `fixtures/<answer>.<variant>.json` as `{ source, note?, body }`. `source` names the
 * file the body follows (`<repo>@<commit>:<path>#<schema or example>`); `body` is the answer.
 * Examples and older-SDK fixtures are transcribed verbatim (the `note` says so); bodies built
 * from a schema take its `examples` where it gives one, and our own values elsewhere. The
 * helper that wrote them is not kept: the JSON files are the artefact.
 *
 * `<answer>` picks the schema a fixture is read with ({@link SCHEMA_BY_ANSWER}).
 */
import { readdirSync, readFileSync } from "fs";
import { join } from "path";
import type { z } from "zod";
import { clusterPageSchema, clusterSchema, upgradeVersionsSchema } from "../../../../provider/api/cloud/k8s";
import { poolQuotaSchema } from "../../../../provider/api/cloud/k8sPoolQuota";
import { instancePageSchema } from "../../../../provider/api/cloud/instances";
import { projectPageSchema } from "../../../../provider/api/cloud/projects";
import { regionPageSchema } from "../../../../provider/api/cloud/regions";
import { taskIdListSchema, taskPageSchema, taskSchema } from "../../../../provider/api/cloud/tasks";
import { delegationStatusSchema } from "../../../../provider/api/dns/analyze";
import { currentClientSchema } from "../../../../provider/api/iam/clients";
import { createdEventSchema, eventListSchema } from "../../../../provider/api/storage/notifications";
import { aiTaskPageSchema } from "../../../../provider/api/streaming/aiTasks";
import { consumptionPageSchema, pingSchema } from "../../../../provider/api/waap/reseller";

export const FIXTURE_DIR = join(__dirname, "fixtures");

/** One fixture file. */
export interface Fixture {
  /** File name, e.g. `task.finished.json`. */
  readonly file: string;
  /** The `<answer>` part of the name, e.g. `task`. */
  readonly answer: string;
  /** Where the body comes from. */
  readonly source: string;
  readonly note?: string;
  /** The answer as the API would send it. */
  readonly body: unknown;
}

/** A schema and the name it is exported under (for test titles). */
export interface NamedSchema {
  readonly name: string;
  readonly schema: z.ZodType;
}

/** Which exported schema reads each answer type. */
export const SCHEMA_BY_ANSWER: Readonly<Record<string, NamedSchema>> = {
  task: { name: "taskSchema", schema: taskSchema },
  taskPage: { name: "taskPageSchema", schema: taskPageSchema },
  taskIdList: { name: "taskIdListSchema", schema: taskIdListSchema },
  projectPage: { name: "projectPageSchema", schema: projectPageSchema },
  regionPage: { name: "regionPageSchema", schema: regionPageSchema },
  instancePage: { name: "instancePageSchema", schema: instancePageSchema },
  cluster: { name: "clusterSchema", schema: clusterSchema },
  clusterPage: { name: "clusterPageSchema", schema: clusterPageSchema },
  upgradeVersions: { name: "upgradeVersionsSchema", schema: upgradeVersionsSchema },
  poolQuota: { name: "poolQuotaSchema", schema: poolQuotaSchema },
  eventList: { name: "eventListSchema", schema: eventListSchema },
  createdEvent: { name: "createdEventSchema", schema: createdEventSchema },
  delegationStatus: { name: "delegationStatusSchema", schema: delegationStatusSchema },
  currentClient: { name: "currentClientSchema", schema: currentClientSchema },
  aiTaskPage: { name: "aiTaskPageSchema", schema: aiTaskPageSchema },
  resellerTotals: { name: "consumptionPageSchema", schema: consumptionPageSchema },
  ping: { name: "pingSchema", schema: pingSchema },
};

/** Every fixture file name, sorted. */
export function fixtureFiles(): string[] {
  return readdirSync(FIXTURE_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort();
}

/** Read one fixture; a file without the `{source, body}` wrapper is a fixture bug. */
export function loadFixture(file: string): Fixture {
  const raw: unknown = JSON.parse(readFileSync(join(FIXTURE_DIR, file), "utf8"));
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new Error(`${file}: not a {source, body} wrapper`);
  const w = raw as Record<string, unknown>;
  const source = w["source"];
  if (typeof source !== "string" || source.length === 0) throw new Error(`${file}: no source`);
  if (!("body" in w)) throw new Error(`${file}: no body`);
  const note = w["note"];
  const answer = file.split(".")[0] ?? "";
  return { file, answer, source, ...(typeof note === "string" ? { note } : {}), body: w["body"] };
}

/** The body of one fixture (a fresh copy each call). */
export function fixtureBody(file: string): unknown {
  return structuredClone(loadFixture(file).body);
}
