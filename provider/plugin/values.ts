/**
 * Translation between the engine's property structs and the plain values lifecycles speak.
 *
 * Why: the plugin tells the engine it accepts secrets, so inputs arrive with secret values
 * wrapped in the engine's signature objects, and unknown values (preview) as a sentinel
 * string. Lifecycles must see plain values; outputs whose input was secret must go back
 * wrapped again, or the engine would store them in plain text.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { SECRET_SIG, SIG_KEY } from "../adapters/secrets";
import { UNKNOWN_VALUE } from "../adapters/unknownValues";

export { UNKNOWN_VALUE };

/** Plain properties plus the names of the top-level properties that held a secret. */
export interface PlainProperties {
  readonly values: Record<string, unknown>;
  readonly secretKeys: ReadonlySet<string>;
}

function isSecretWrapper(v: unknown): v is { value: unknown } {
  return v !== null && typeof v === "object" && !Array.isArray(v) && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** `value` with every secret wrapper replaced by its content; `found` is set when one was. */
function unwrap(value: unknown, found: { secret: boolean }): unknown {
  if (isSecretWrapper(value)) {
    found.secret = true;
    return unwrap(value.value, found);
  }
  if (Array.isArray(value)) return value.map((v) => unwrap(v, found));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, unwrap(v, found)]));
  }
  return value;
}

/** Plain values of an engine struct (absent struct = no properties), with the secret keys. */
export function fromStruct(struct: Struct | undefined): PlainProperties {
  const raw = (struct?.toJavaScript() ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  const secretKeys = new Set<string>();
  for (const [key, value] of Object.entries(raw)) {
    const found = { secret: false };
    values[key] = unwrap(value, found);
    if (found.secret) secretKeys.add(key);
  }
  return { values, secretKeys };
}

/** `value` without undefined members (a struct cannot hold them; absent means unset). */
function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, withoutUndefined(v)]),
    );
  }
  return value;
}

/** An engine struct of `values`, the properties named in `secretKeys` wrapped as secrets. */
export function toStruct(values: object, secretKeys: ReadonlySet<string> = new Set()): Struct {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(withoutUndefined(values) as Record<string, unknown>)) {
    out[key] = secretKeys.has(key) ? { [SIG_KEY]: SECRET_SIG, value } : value;
  }
  return Struct.fromJavaScript(out as Parameters<typeof Struct.fromJavaScript>[0]);
}
