/**
 * A strict check of a value against docs/guides/drift-report.schema.json, for the drift tests.
 *
 * Why hand-written: no JSON Schema validator is among the dependencies, and the report's schema
 * uses only this subset (type, const, enum, required, properties, additionalProperties: false,
 * items, minimum, local $ref). A keyword outside the subset fails the check, so the schema
 * cannot grow past what is checked.
 */
import * as fs from "fs";
import * as path from "path";

/** The report's schema, as published. */
export const REPORT_SCHEMA = JSON.parse(fs.readFileSync(path.join(__dirname, "../../../docs/guides/drift-report.schema.json"), "utf8"));

const KNOWN = new Set(["$schema", "$id", "$defs", "$ref", "title", "description", "type", "const", "enum", "required", "properties", "additionalProperties", "items", "minimum"]);

function typeOk(type: string, v: unknown): boolean {
  if (type === "integer") return Number.isInteger(v);
  if (type === "array") return Array.isArray(v);
  if (type === "object") return v !== null && typeof v === "object" && !Array.isArray(v);
  return typeof v === type;
}

/** The problems of `value` against `schema` (empty when it conforms), each with its JSON path. */
export function schemaProblems(value: unknown, schema: any = REPORT_SCHEMA, root: any = REPORT_SCHEMA, at = "$"): string[] {
  for (const k of Object.keys(schema)) if (!KNOWN.has(k)) return [`${at}: the schema uses ${k}, which this check does not know`];
  if (schema.$ref) return schemaProblems(value, root.$defs[String(schema.$ref).replace("#/$defs/", "")], root, at);
  const out: string[] = [];
  if (schema.type && !typeOk(schema.type, value)) return [`${at}: not of type ${schema.type}`];
  if ("const" in schema && value !== schema.const) out.push(`${at}: must be ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) out.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (schema.minimum !== undefined && typeof value === "number" && value < schema.minimum) out.push(`${at}: below ${schema.minimum}`);
  if (schema.type === "object") {
    const obj = value as Record<string, unknown>;
    for (const r of schema.required ?? []) if (!(r in obj)) out.push(`${at}: ${r} is missing`);
    for (const [k, v] of Object.entries(obj)) {
      const sub = schema.properties?.[k];
      if (sub) out.push(...schemaProblems(v, sub, root, `${at}.${k}`));
      else if (schema.additionalProperties === false) out.push(`${at}: ${k} is not allowed`);
    }
  }
  if (schema.type === "array" && schema.items) (value as unknown[]).forEach((v, i) => out.push(...schemaProblems(v, schema.items, root, `${at}[${i}]`)));
  return out;
}
