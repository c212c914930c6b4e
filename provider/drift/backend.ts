/**
 * The state backend a project's stacks live in, named as the CLI resolves it, for messages.
 *
 * Why read it here and not ask the CLI (`pulumi whoami`): the message is for a backend that does
 * not answer, and asking the CLI would wait on the same backend.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const DEFAULT_BACKEND = "https://api.pulumi.com";

/** The `current` URL of the CLI's stored credentials (`pulumi login`), when any. */
function loggedInUrl(env: NodeJS.ProcessEnv): string | undefined {
  const dir = env.PULUMI_CREDENTIALS_PATH || env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
  try {
    const current = (JSON.parse(fs.readFileSync(path.join(dir, "credentials.json"), "utf8")) as { current?: unknown }).current;
    return typeof current === "string" && current ? current : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The backend URL in the CLI's order: `PULUMI_BACKEND_URL`, the project's `backend.url`, the
 * stored login, else Pulumi Cloud.
 */
export function backendUrlOf(projectBackendUrl: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return env.PULUMI_BACKEND_URL || projectBackendUrl || loggedInUrl(env) || DEFAULT_BACKEND;
}

/** Query parameters that carry a credential in backend URLs (libpq's `password`, Azure's SAS `sig`). */
const SECRET_PARAMS = /([?&](?:password|passwd|pwd|secret|token|sig|access_?key|account_?key)=)[^&#]*/gi;

/** `url` with the password of its user info and any credential in its query replaced by `***`. */
export function redactBackendUrl(url: string): string {
  return url.replace(/^([a-z][\w+.-]*:\/\/[^:/?#@]*):[^/?#]*@/i, "$1:***@").replace(SECRET_PARAMS, "$1***");
}
