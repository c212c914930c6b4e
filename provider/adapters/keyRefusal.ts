/**
 * What a refused API key (401, 403) tells the user, once the adapter knows which key it used.
 *
 * Why not in the client: which key was refused depends on the Pulumi command. `pulumi refresh`,
 * `pulumi preview --refresh` and `pulumi destroy` configure providers from the settings saved in
 * the state at the last `pulumi up` unless run with `--run-program`, so after a key rotation
 * "set it with the config" sends the user in a circle; the way out is
 * `pulumi refresh --run-program` or `pulumi up`.
 */
import { AuthenticationError, PermissionDeniedError, type ApiError } from "../api/errors";
import { reworded } from "../caughtErrors";
import { API_KEY_CONFIG, API_KEY_ENV } from "../settings";

/**
 * Which key an operation used: the one `saved` in the state at the last `pulumi up`, the
 * `current` config's (the program ran), or, where the adapter cannot tell (a read or delete on
 * the dynamic path), `savedUnlessRunProgram`.
 */
export type KeyUse = "saved" | "current" | "savedUnlessRunProgram";

/** Where the settings' key came from (`ConnectionSettings.apiKeyFrom`). */
export type KeyOrigin = "config" | "environment" | undefined;

/** The first 401/403 in `err` and its causes, when it carries a hint to replace. */
function refusalIn(err: unknown): ApiError | undefined {
  const seen = new Set<unknown>();
  for (let e: unknown = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if ((e instanceof AuthenticationError || e instanceof PermissionDeniedError) && e.hint) return e;
  }
  return undefined;
}

const SET_KEY = `\`pulumi config set --secret ${API_KEY_CONFIG} ...\``;

/** What to say about a refused key that the command used as `use`, from `origin`: what to do first, then which key it was. */
export function keyAdvice(denied: boolean, use: KeyUse, origin: KeyOrigin): string {
  const refused = denied ? "The API key is valid but lacks permission for this operation" : "The API key is missing or invalid";
  const fix = denied ? "use a key whose role allows it" : "set a valid one";
  if (origin === "environment") {
    return `${refused}: ${fix} in the environment variable ${API_KEY_ENV}. This command used the key of the environment variable ${API_KEY_ENV} (the stack's config sets none).`;
  }
  if (use === "current") return `${refused}: ${fix} with ${SET_KEY}. This command used the key of the current Pulumi config \`${API_KEY_CONFIG}\`.`;
  const which =
    use === "saved"
      ? "This command used the API key saved in the stack's state at its last `pulumi up`, not the current config"
      : "Unless this command ran with `--run-program`, it used the API key saved in the stack's state at its last `pulumi up`, not the current config";
  const otherwise = use === "saved" ? "if not" : "if not (or it ran with `--run-program`, which uses the current config)";
  return (
    `${refused}. If you have set a new key since the last \`pulumi up\`, run \`pulumi refresh --run-program\` (it reads with the current config; ` +
    "`pulumi destroy --run-program` deletes with it) or `pulumi up` (it saves the new key in the state); " +
    `${otherwise}, ${fix} with ${SET_KEY} first. ${which}: \`pulumi refresh\`, \`pulumi preview --refresh\` and \`pulumi destroy\` ` +
    "read and delete with the provider settings of the last update."
  );
}

/** What a refusal says once its advice was given in full earlier in the run. */
function briefAdvice(denied: boolean): string {
  const refused = denied ? "The API key lacks permission for this operation" : "The API key is missing or invalid";
  return `${refused} (what to do is in the error of the first resource this run refused).`;
}

/**
 * `err` led by the advice of a refused key, in place of the client's hint (same class and fields,
 * the original as its cause): in full unless `given` (the run's `RunState.keyAdviceGiven`) holds
 * that advice already, then briefly; in full each time without `given`. Any other error unchanged.
 */
export function explainKeyRefusal(err: unknown, use: KeyUse, origin: KeyOrigin, given?: Set<string>): unknown {
  const refusal = refusalIn(err);
  if (!refusal?.hint || !(err instanceof Error)) return err;
  const denied = refusal instanceof PermissionDeniedError;
  const advice = keyAdvice(denied, use, origin);
  const lead = given?.has(advice) ? briefAdvice(denied) : advice;
  given?.add(advice);
  return reworded(err, `${lead} ${err.message.replace(` ${refusal.hint}`, "").replace(refusal.hint, "")}`);
}
