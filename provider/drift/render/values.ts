/** How the renderers write a value and a resource's drift in one line, the same in every format. */
import type { FieldDrift, ResourceDrift } from "../report";

/** A value for people: text as it is, `(unset)` for none, anything else as JSON. */
export function showValue(value: unknown): string {
  if (value === undefined || value === null) return "(unset)";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** `bytes 1000 -> 7` (state -> live), with the declared value when it differs from the state. */
export function showField(f: FieldDrift): string {
  const declared = "declared" in f && showValue(f.declared) !== showValue(f.state) ? ` (declared ${showValue(f.declared)})` : "";
  return `${f.field} ${showValue(f.state)} -> ${showValue(f.live)}${declared}`;
}

/** `space: bytes 1000 -> 7`, `traffic: deleted outside Pulumi`, the line of one resource. */
export function showResource(r: ResourceDrift): string {
  if (r.live === "deleted") return `${r.name}: deleted outside Pulumi (next up: ${r.plannedOp})`;
  const fields = r.fields.map(showField).join(", ") || "no field changed";
  return r.live === "pending" ? `${r.name}: declaration changed, ${fields} (next up: ${r.plannedOp})` : `${r.name}: ${fields}`;
}
