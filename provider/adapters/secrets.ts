/**
 * What must never appear in an error, a log line or an output, as both adapters compute it.
 *
 * Why one function: each adapter redacts with the secrets of the configuration it runs under;
 * when a setting becomes secret (today only the API key), it is added here once.
 */
import type { ConnectionSettings } from "../settings";

/** The secret values of `settings` (empty when none is configured). */
export function secretsOf(settings: ConnectionSettings): readonly string[] {
  return settings.apiKey ? [settings.apiKey] : [];
}
