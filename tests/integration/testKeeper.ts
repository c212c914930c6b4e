/**
 * A stand-in for HashiCorp Vault's transit engine on a loopback port, the secrets provider of
 * most test stacks.
 *
 * Why: a stack on the passphrase provider makes every CLI process that decrypts (each `up`,
 * `preview`, `refresh`, `destroy`) derive its key with PBKDF2 at 1,000,000 iterations, about
 * 0.3 s of CPU, a quarter of the suite's CPU for a cost no test is about. The Pulumi CLI has
 * `hashivault://` built in (gocloud.dev), so a stack created with
 * `--secrets-provider hashivault://<key>` asks this server once per CLI process to unwrap its
 * data key, and encrypts its secrets with that key exactly as it does for any cloud provider:
 * the state still holds only ciphertext, which is what the secret scans check.
 *
 * It is not a keeper of anything: the wrapped data key is the plain one, base64-encoded behind
 * Vault's `vault:v1:` prefix. Stacks that stand for a user's default (secrets.test.ts) and
 * bench keep the passphrase provider.
 */
import * as http from "http";
import { listenOnLoopback } from "../unit/api/helpers";

/** The key name in the transit paths and the stack's `secretsprovider` URL. */
const KEY_NAME = "cloudplatform-test";
const PREFIX = "vault:v1:";

/** How a test stack uses the stand-in: the `--secrets-provider` URL and the CLI's environment. */
export interface TestSecretsProvider {
  url: string;
  env: Record<string, string>;
}

let started: Promise<TestSecretsProvider> | undefined;

/**
 * Starts the stand-in once per test file's module registry (unreferenced, so it never keeps a
 * jest worker alive) and says how to use it.
 */
export function testSecretsProvider(): Promise<TestSecretsProvider> {
  started ??= listen();
  return started;
}

async function listen(): Promise<TestSecretsProvider> {
  const server = http.createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      const reply = answer(req.method ?? "", req.url ?? "", text);
      res.writeHead(reply.status, { "content-type": "application/json" });
      res.end(JSON.stringify(reply.body));
    });
  });
  const address = await listenOnLoopback(server);
  server.unref();
  return { url: `hashivault://${KEY_NAME}`, env: { VAULT_ADDR: address, VAULT_TOKEN: "cloudplatform-test-token" } };
}

/** The transit engine's encrypt and decrypt, as the Vault client writes them (PUT or POST). */
export function answer(method: string, url: string, text: string): { status: number; body: unknown } {
  const match = /^\/v1\/transit\/(encrypt|decrypt)\/([^/?]+)$/.exec(url);
  if (!match || (method !== "PUT" && method !== "POST") || match[2] !== KEY_NAME) {
    return { status: 404, body: { errors: [`no route ${method} ${url} in the test keeper`] } };
  }
  let request: Record<string, unknown>;
  try {
    request = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { status: 400, body: { errors: ["the body is not JSON"] } };
  }
  if (match[1] === "encrypt" && typeof request.plaintext === "string") {
    return { status: 200, body: { data: { ciphertext: PREFIX + request.plaintext } } };
  }
  if (match[1] === "decrypt" && typeof request.ciphertext === "string" && request.ciphertext.startsWith(PREFIX)) {
    return { status: 200, body: { data: { plaintext: request.ciphertext.slice(PREFIX.length) } } };
  }
  return { status: 400, body: { errors: [`${match[1]} needs a ${match[1] === "encrypt" ? "plaintext" : `ciphertext starting with ${PREFIX}`}`] } };
}
