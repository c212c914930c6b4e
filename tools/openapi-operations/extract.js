// @ts-check
/**
 * Derives `tests/conformance/openapi-operations.json` from the platform's public OpenAPI files: for
 * each operation the provider calls (OPERATIONS below), its method and path template, its path
 * and query parameters (type, enum, format, bounds, required) and its request body schema
 * (types, required properties, enums, bounds, `additionalProperties: false`), with `$ref`s
 * resolved and descriptions, titles, defaults and examples left out: facts, not the files' text.
 * `tests/unit/conformance/requests.test.ts` checks the requests of a full run against them.
 *
 * Why a script: the facts are the project's own data (the tests read only the committed JSON, no
 * network, no mirror), but they must be refreshable from a newer snapshot of the files.
 *
 * Usage: node tools/openapi-operations/extract.js <clone-of-G-Core/product-documentation> [--commit <rev>] [--check]
 * The clone may be bare (it is read with `git show <rev>:<file>`); <rev> defaults to HEAD.
 * `--check` writes nothing and exits 1 when the committed file differs from what it derives.
 */
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const yaml = require("js-yaml");

const ROOT = path.resolve(__dirname, "../..");
const OUT = path.join(ROOT, "tests/conformance/openapi-operations.json");
const REPOSITORY = "G-Core/product-documentation";
const DIR = "api-reference/services_docs_mintlify_enriched";

/**
 * The operations the provider calls, as `[file, METHOD, path template]`: the file is
 * `<DIR>/<file>_api.yaml`. A new call in provider/api/ adds its line here, then a refresh.
 */
const OPERATIONS = [
  ["cloud", "GET", "/cloud/v1/tasks"],
  ["cloud", "GET", "/cloud/v1/tasks/{task_id}"],
  ["cloud", "GET", "/cloud/v1/projects"],
  ["cloud", "GET", "/cloud/v1/regions"],
  ["cloud", "GET", "/cloud/v1/instances/{project_id}/{region_id}"],
  ["cloud", "GET", "/cloud/v2/k8s/clusters/{project_id}/{region_id}"],
  ["cloud", "GET", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}"],
  ["cloud", "GET", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/upgrade_versions"],
  ["cloud", "POST", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/{cluster_name}/upgrade"],
  ["cloud", "POST", "/cloud/v2/k8s/clusters/{project_id}/{region_id}/pools/check_limits"],
  ["dns", "GET", "/dns/v2/analyze/{name}/delegation-status"],
  ["iam", "GET", "/iam/clients/me"],
  ["object_storage", "POST", "/storage/notifications/v1/event"],
  ["object_storage", "PUT", "/storage/notifications/v1/event"],
  ["object_storage", "DELETE", "/storage/notifications/v1/event"],
  ["object_storage", "GET", "/storage/notifications/v1/events"],
  ["streaming", "GET", "/streaming/ai/tasks"],
  ["waap_reseller", "GET", "/waap/v1/prebilling/total/{metric}"],
  ["waap_reseller", "GET", "/waap/ping"],
];

/** Schema keywords kept as facts, copied as they are (the rest: composed below or left out). */
const KEPT = ["type", "enum", "const", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems"];

/** The object `#/a/b/c` points at in `doc`. */
function resolvePointer(doc, ref) {
  if (!ref.startsWith("#/")) throw new Error(`only local $refs are supported, got ${ref}`);
  return ref
    .slice(2)
    .split("/")
    .reduce((node, key) => {
      const next = node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")];
      if (next === undefined) throw new Error(`unresolved $ref ${ref}`);
      return next;
    }, doc);
}

/** The facts of two schemas that must both hold (allOf): properties and required merged. */
function mergeFacts(a, b) {
  const out = { ...a, ...b };
  if (a.properties || b.properties) out.properties = { ...a.properties, ...b.properties };
  if (a.required || b.required) out.required = [...new Set([...(a.required ?? []), ...(b.required ?? [])])];
  return out;
}

/**
 * One schema reduced to its facts. `anyOf`/`oneOf` with a `null` branch become `nullable`; a
 * single remaining branch is inlined. `stack` holds the `$ref`s being expanded (a recursive
 * schema stops at `{}`, any value).
 */
function factsOf(doc, schema, stack = []) {
  if (schema === true || schema === undefined) return {};
  if (schema.$ref) {
    if (stack.includes(schema.$ref)) return {};
    const { $ref, ...siblings } = schema;
    return mergeFacts(factsOf(doc, resolvePointer(doc, $ref), [...stack, $ref]), factsOf(doc, siblings, stack));
  }
  let out = {};
  for (const k of KEPT) if (schema[k] !== undefined) out[k] = schema[k];
  if (Array.isArray(out.type)) {
    const types = out.type.filter((t) => t !== "null");
    if (types.length < out.type.length) out.nullable = true;
    out.type = types.length === 1 ? types[0] : types;
  }
  if (schema.nullable === true) out.nullable = true;
  if (schema.items) out.items = factsOf(doc, schema.items, stack);
  if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, factsOf(doc, v, stack)]));
  if (Array.isArray(schema.required) && schema.required.length) out.required = [...schema.required];
  if (schema.additionalProperties === false) out.additionalProperties = false;
  else if (typeof schema.additionalProperties === "object") out.additionalProperties = factsOf(doc, schema.additionalProperties, stack);
  for (const part of schema.allOf ?? []) out = mergeFacts(out, factsOf(doc, part, stack));
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const facts = branches.map((b) => factsOf(doc, b, stack));
    const nonNull = facts.filter((f) => f.type !== "null");
    if (nonNull.length < facts.length) out.nullable = true;
    if (nonNull.length === 1) out = mergeFacts(out, nonNull[0]);
    else out.anyOf = nonNull;
  }
  return out;
}

/**
 * The values a parameter's description lists as `one of ['a', 'b', ...]` when its schema has no
 * enum (the cloud API's `task_type` filter: the schema says `string`, the text lists the types).
 */
function enumFromDescription(description) {
  const listed = /one of \[((?:\s*'[^']*'\s*,?)+)\]/.exec(description ?? "");
  return listed ? [...listed[1].matchAll(/'([^']*)'/g)].map((m) => m[1]) : undefined;
}

/** A parameter's facts: where it goes, whether it is required, its schema's facts. */
function parameterFacts(doc, p) {
  const param = p.$ref ? resolvePointer(doc, p.$ref) : p;
  const schema = factsOf(doc, param.schema ?? {});
  const listed = schema.enum === undefined && schema.type === "string" ? enumFromDescription(param.description) : undefined;
  const out = { required: param.required === true, schema: listed ? { ...schema, enum: listed } : schema };
  if (listed) out.enumFrom = "description";
  if (param.explode === false) out.explode = false;
  return { in: param.in, name: param.name, facts: out };
}

/** The facts of one operation; throws when the file lacks it. */
function operationFacts(doc, file, method, template, commit) {
  const item = doc.paths?.[template];
  const op = item?.[method.toLowerCase()];
  if (!op) throw new Error(`${file}: no ${method} ${template}`);
  const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => parameterFacts(doc, p));
  const group = (where) => Object.fromEntries(params.filter((p) => p.in === where).map((p) => [p.name, p.facts]).sort(([a], [b]) => a.localeCompare(b)));
  let body = null;
  if (op.requestBody) {
    const rb = op.requestBody.$ref ? resolvePointer(doc, op.requestBody.$ref) : op.requestBody;
    const [contentType, media] = Object.entries(rb.content ?? {})[0] ?? ["application/json", {}];
    body = { required: rb.required === true, contentType, schema: factsOf(doc, media.schema ?? {}) };
  }
  return {
    method,
    path: template,
    ...(op.operationId ? { operationId: op.operationId } : {}),
    source: { file, commit },
    pathParameters: group("path"),
    queryParameters: group("query"),
    body,
  };
}

/** Every operation's facts from the files at `rev` of the clone at `repo`. */
function extract(repo, rev) {
  const git = (...args) => execFileSync("git", ["-C", repo, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const commit = git("rev-parse", `${rev}^{commit}`).trim();
  const docs = new Map();
  const docOf = (name) => {
    const file = `${DIR}/${name}_api.yaml`;
    if (!docs.has(file)) docs.set(file, yaml.load(git("show", `${commit}:${file}`)));
    return { file, doc: docs.get(file) };
  };
  const operations = OPERATIONS.map(([name, method, template]) => {
    const { file, doc } = docOf(name);
    return operationFacts(doc, file, method, template, commit);
  });
  return {
    about:
      "Facts of the platform's public OpenAPI files for the operations this provider calls (paths, methods, parameters, request bodies), derived by tools/openapi-operations/extract.js; tests/unit/conformance checks our requests against them.",
    repository: REPOSITORY,
    operations,
  };
}

function main(argv) {
  const args = argv.slice(2);
  const check = args.includes("--check");
  const at = args.indexOf("--commit");
  const rev = at >= 0 ? args[at + 1] : "HEAD";
  const repo = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--commit");
  if (!repo || !rev) {
    console.error("usage: node tools/openapi-operations/extract.js <clone-of-G-Core/product-documentation> [--commit <rev>] [--check]");
    process.exit(2);
  }
  const text = `${JSON.stringify(extract(repo, rev), null, 2)}\n`;
  if (check) {
    const same = fs.existsSync(OUT) && fs.readFileSync(OUT, "utf8") === text;
    console.log(same ? `${path.relative(ROOT, OUT)} is current` : `${path.relative(ROOT, OUT)} differs from the files at ${rev}: run without --check`);
    process.exit(same ? 0 : 1);
  }
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, text);
  console.log(`wrote ${path.relative(ROOT, OUT)}: ${OPERATIONS.length} operations`);
}

if (require.main === module) main(process.argv);

module.exports = { extract, factsOf, enumFromDescription, OPERATIONS };
