/**
 * Checks that the API key never appears in a stack's state in plain text.
 *
 * What Pulumi itself does with a secret config value: it keeps it encrypted in the stack
 * config and, because the engine hands dynamic providers the stack config through their
 * default `pulumi:providers:pulumi-nodejs` provider, encrypted in that provider's state too.
 * So the promise we check is: no backend file holds the key in plain text; in the decrypted
 * export (`exportStack` runs `stack export --show-secrets`) the key appears only as a
 * secret-marked value, and never in any resource of this package.
 */
import * as fs from "fs";
import * as path from "path";
import type { Stack } from "@pulumi/pulumi/automation";

/** Pulumi's marker key of a secret value in serialized state, and its marker value. */
export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/** Every file of a `file://` backend (state, backups, history), as stored on disk. */
export function backendFiles(backendUrl: string): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push({ file: full, text: fs.readFileSync(full, "latin1") });
    }
  };
  walk(new URL(backendUrl).pathname);
  return out;
}

/** A deep copy with every secret-marked value replaced by "[secret]". */
export function withoutSecretValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecretValues);
  if (value !== null && typeof value === "object") {
    if ((value as Record<string, unknown>)[SECRET_SIG_KEY] === SECRET_SIG_VALUE) return "[secret]";
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSecretValues(v)]));
  }
  return value;
}

/** Where the key was found, if anywhere it must not be; empty means the state is clean. */
export async function keyLeaksInState(stack: Stack, backendUrl: string, apiKey: string): Promise<string[]> {
  const leaks = backendFiles(backendUrl)
    .filter((f) => f.text.includes(apiKey))
    .map((f) => `backend file ${f.file}`);
  const exported = await stack.exportStack();
  if (JSON.stringify(withoutSecretValues(exported)).includes(apiKey)) {
    leaks.push("decrypted export, outside secret-marked values");
  }
  const resources = ((exported.deployment as { resources?: Array<Record<string, unknown>> })?.resources ?? []);
  for (const r of resources) {
    if (String(r.type).startsWith("pulumi-nodejs:dynamic/cloudplatform:") && JSON.stringify(r).includes(apiKey)) {
      leaks.push(`resource ${String(r.urn)}`);
    }
  }
  return leaks;
}
