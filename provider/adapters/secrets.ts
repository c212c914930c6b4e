/**
 * Secrets as the provider meets them: the values that must never appear in an error, a log line
 * or an output, and the engine's mark of a secret value in serialized properties.
 *
 * Why one module: each adapter (and the drift command) redacts with the secrets of the
 * configuration it runs under, and the plugin's structs and the drift command's engine events
 * mark secrets the same way.
 */
import type { ConnectionSettings } from "../settings";

/** The key marking a special value (secret, asset, resource reference) in the engine's serialized properties. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The value of {@link SIG_KEY} that marks a secret. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** The secret values of `settings` (empty when none is configured). */
export function secretsOf(settings: ConnectionSettings): readonly string[] {
  return settings.apiKey ? [settings.apiKey] : [];
}
