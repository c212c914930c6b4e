/**
 * The table behind generated.test.ts: per answer schema, a full valid fixture, its decision
 * fields (required: absent or null is refused) and its enum paths (an undocumented value is
 * read), after the field rules in docs/api-field-rules.md: only decision fields are required;
 * everything else optional, unknown fields ignored, unknown enum values kept as text, older
 * field names read as aliases. A row lists every required path: nothing is implied by nesting.
 */
import { SCHEMA_BY_ANSWER, fixtureFiles } from "./fixtureFiles";
import { generateCases, type GeneratedCase, type SchemaRow } from "./generate";

function schemaOf(answer: string) {
  const s = SCHEMA_BY_ANSWER[answer];
  if (!s) throw new Error(`no schema registered for ${answer}`);
  return { schemaName: s.name, schema: s.schema };
}

/** A page row: `results[]` item fields prefixed. */
const items = (...fields: string[]) => fields.map((f) => `results[].${f}`);

/** Fields required in the items of an instance's optional lists (address, tag, volume, security group). */
const INSTANCE_ITEM_FIELDS = ["addresses.*[].addr", "tags[].key", "tags[].value", "volumes[].id", "security_groups[].name"];

export const TABLE: readonly SchemaRow[] = [
  {
    ...schemaOf("task"),
    fixture: "task.finished.json",
    required: ["id", "state"],
    enums: [
      { path: "state", unknownValue: "PAUSED" },
      { path: "detailed_state", unknownValue: "CLUSTER_UPGRADE" },
    ],
    maps: ["created_resources"],
  },
  {
    ...schemaOf("task"),
    fixture: "task.running.json",
    required: ["id", "state"],
    enums: [
      { path: "state", unknownValue: "SUSPENDED" },
      { path: "detailed_state", unknownValue: "CLUSTER_UPGRADE" },
    ],
  },
  {
    ...schemaOf("taskPage"),
    fixture: "taskPage.openapi.json",
    required: ["count", "results", ...items("id", "state")],
    enums: [
      { path: "results[].state", unknownValue: "PAUSED" },
      { path: "results[].detailed_state", unknownValue: "CLUSTER_UPGRADE" },
    ],
    maps: ["results[].created_resources"],
  },
  { ...schemaOf("taskIdList"), fixture: "taskIdList.openapi.json", required: ["tasks"] },
  {
    ...schemaOf("projectPage"),
    fixture: "projectPage.openapi.json",
    // docs/api-field-rules.md: `state` is optional (no decision reads it), kept as sent.
    required: ["count", "results", ...items("id", "name", "is_default")],
    enums: [{ path: "results[].state", unknownValue: "ARCHIVED" }],
  },
  {
    ...schemaOf("regionPage"),
    fixture: "regionPage.openapi.json",
    required: ["results", ...items("id", "display_name", "state", "access_level", "has_kvm", "has_baremetal", "has_k8s", "has_dbaas")],
    enums: [
      { path: "results[].state", unknownValue: "DECOMMISSIONED" },
      { path: "results[].zone", unknownValue: "AFRICA" },
      { path: "results[].access_level", unknownValue: "satellite" },
      { path: "results[].endpoint_type", unknownValue: "private" },
      { path: "results[].file_share_types[]", unknownValue: "cephfs" },
    ],
  },
  {
    ...schemaOf("instancePage"),
    fixture: "instancePage.openapi.json",
    // docs/api-field-rules.md: inside the optional lists, each item keeps its identifying field.
    required: ["count", "results", ...items("id", "name", ...INSTANCE_ITEM_FIELDS)],
    enums: [
      { path: "results[].status", unknownValue: "HIBERNATED" },
      { path: "results[].vm_state", unknownValue: "hibernated" },
      { path: "results[].addresses.*[].type", unknownValue: "reserved" },
      { path: "results[].flavor.os_type", unknownValue: "plan9" },
      { path: "results[].flavor.architecture", unknownValue: "riscv64" },
    ],
    maps: ["results[].addresses"],
  },
  {
    ...schemaOf("instancePage"),
    fixture: "instancePage.lcg.json",
    required: [
      "count",
      "results",
      { path: "results[].instance_id", names: ["instance_id", "id"] },
      { path: "results[].instance_name", names: ["instance_name", "name"] },
      ...items("addresses.*[].addr", "volumes[].id", "security_groups[].name"),
    ],
    enums: [
      { path: "results[].status", unknownValue: "HIBERNATED" },
      { path: "results[].vm_state", unknownValue: "hibernated" },
      { path: "results[].addresses.*[].type", unknownValue: "reserved" },
    ],
    maps: ["results[].addresses", "results[].metadata"],
  },
  {
    ...schemaOf("cluster"),
    fixture: "cluster.openapi.json",
    required: ["name"],
    enums: [
      { path: "status", unknownValue: "Upgrading" },
      { path: "pools[].status", unknownValue: "Resizing" },
      { path: "pools[].servergroup_policy", unknownValue: "spread" },
      { path: "cni.provider", unknownValue: "flannel" },
    ],
    maps: [
      "autoscaler_config",
      "authentication.oidc.required_claims",
      "pools[].labels",
      "pools[].taints",
      "pools[].crio_config",
      "pools[].kubelet_config",
    ],
  },
  {
    ...schemaOf("cluster"),
    fixture: "cluster.provisioning.json",
    required: ["name"],
    enums: [
      { path: "status", unknownValue: "Upgrading" },
      { path: "pools[].status", unknownValue: "Resizing" },
    ],
  },
  {
    ...schemaOf("clusterPage"),
    fixture: "clusterPage.lcg.json",
    required: ["count", "results", ...items("name")],
    enums: [
      { path: "results[].status", unknownValue: "Upgrading" },
      { path: "results[].pools[].status", unknownValue: "Resizing" },
    ],
  },
  { ...schemaOf("upgradeVersions"), fixture: "upgradeVersions.many.json", required: ["results", ...items("version")] },
  // Every quota field is optional (the answer holds only the exceeded ones; `{}` when none).
  { ...schemaOf("poolQuota"), fixture: "poolQuota.openapi.json", required: [] },
  {
    ...schemaOf("createdEvent"),
    fixture: "createdEvent.openapi.json",
    required: ["name"],
    enums: [{ path: "name", unknownValue: "reaching_used_bandwidth" }],
  },
  {
    ...schemaOf("eventList"),
    fixture: "eventList.full.json",
    required: [],
    atLeastOneOf: ["reaching_used_space", "reaching_files_quantity", "reaching_used_traffic", "reaching_used_requests"],
  },
  {
    ...schemaOf("delegationStatus"),
    fixture: "delegationStatus.openapi.json",
    required: [],
    // Every field is optional, but a body with none of them (`{}`, an error object) is refused.
    atLeastOneOf: ["authoritative_name_servers", "gcore_authorized_count", "non_gcore_authorized_count", "is_whitelabel_delegation", "zone_exists"],
  },
  {
    ...schemaOf("currentClient"),
    fixture: "currentClient.openapi.json",
    required: ["id"],
    enums: [
      { path: "status", unknownValue: "suspended" },
      { path: "serviceStatuses.*.status", unknownValue: "migrating" },
      { path: "signup_process", unknownValue: "sign_up_sso" },
    ],
    maps: ["serviceStatuses", "paidFeatures", "freeFeatures"],
    // The rules: "serviceStatuses values: objects with status optional text, enabled boolean|null".
    noNullEntries: ["serviceStatuses"],
  },
  {
    ...schemaOf("currentClient"),
    fixture: "currentClient.minimal.json",
    required: ["id"],
    enums: [{ path: "status", unknownValue: "suspended" }],
  },
  {
    ...schemaOf("aiTaskPage"),
    fixture: "aiTaskPage.openapi.json",
    required: ["results", ...items("task_id")],
    enums: [
      { path: "results[].status", unknownValue: "ARCHIVED" },
      { path: "results[].task_name", unknownValue: "translation" },
    ],
  },
  {
    ...schemaOf("aiTaskPage"),
    fixture: "aiTaskPage.python-sdk.json",
    required: ["results", ...items("task_id")],
    enums: [
      { path: "results[].status", unknownValue: "ARCHIVED" },
      { path: "results[].task_data.task_name", unknownValue: "translation" },
    ],
  },
  {
    ...schemaOf("resellerTotals"),
    fixture: "resellerTotals.openapi.json",
    required: ["results", ...items("date", "amount")],
  },
  { ...schemaOf("ping"), fixture: "ping.openapi.json", required: ["message"] },
];

/** Every generated case, in table order. */
export function allGeneratedCases(): GeneratedCase[] {
  return TABLE.flatMap(generateCases);
}

/** The numbers CONTRIBUTING.md quotes. */
export interface ConformanceCounts {
  readonly fixtures: number;
  readonly schemasInTable: number;
  readonly tableRows: number;
  readonly generatedCases: number;
  readonly byKind: Readonly<Record<string, number>>;
}

export function conformanceCounts(): ConformanceCounts {
  const cases = allGeneratedCases();
  const byKind: Record<string, number> = {};
  for (const c of cases) byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
  return {
    fixtures: fixtureFiles().length,
    schemasInTable: new Set(TABLE.map((r) => r.schemaName)).size,
    tableRows: TABLE.length,
    generatedCases: cases.length,
    byKind,
  };
}
