/**
 * Secret redaction for every message, log line and error body this client produces.
 *
 * Why here and not at the edges: errors travel far (Pulumi logs, CI output, state diffs), so the
 * API key is scrubbed where text is created, before anything else can see it.
 */

/** What a redacted secret is replaced with. */
export const REDACTED = "[REDACTED]";

/** The shortest truncated prefix of a key that servers echo ("Bad token: abcdef...") we still scrub. */
const MIN_PARTIAL = 6;

/**
 * Replace every occurrence of each secret in `text`, plus any leading fragment of at least six
 * characters of a secret that stands as a token of its own (servers echo truncated tokens:
 * `Bad token: cpk_0123...`), plus any `apikey <token>` credential. A fragment that runs on into
 * other word characters is ordinary text that happens to share the key's start (a cluster named
 * `demo-cluster` with a key `demo-c7f...`) and is left alone. Empty secrets are ignored.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    out = out.split(secret).join(REDACTED);
    if (secret.length >= MIN_PARTIAL + 2) {
      out = redactPrefixes(out, secret);
    }
  }
  // An Authorization value that reached a message, whatever token it carries.
  return out.replace(/\b(apikey|bearer)\s+(?!\[REDACTED\])[A-Za-z0-9._~+/=$:-]{8,}/gi, `$1 ${REDACTED}`);
}

/** A character that continues a token: a fragment followed by one is part of a longer word. */
const TOKEN_CHAR = /[A-Za-z0-9_-]/;

function redactPrefixes(text: string, secret: string): string {
  const head = secret.slice(0, MIN_PARTIAL);
  let out = "";
  let i = 0;
  for (;;) {
    const at = text.indexOf(head, i);
    if (at < 0) break;
    let end = at + MIN_PARTIAL;
    while (end < text.length && end - at < secret.length && text[end] === secret[end - at]) end++;
    if (end < text.length && end - at < secret.length && TOKEN_CHAR.test(text.charAt(end))) {
      out += text.slice(i, at + 1);
      i = at + 1;
      continue;
    }
    out += text.slice(i, at) + REDACTED;
    i = end;
  }
  return out + text.slice(i);
}

/**
 * Deep-copy JSON-like data with every string redacted. Used for error bodies kept on errors so
 * that inspecting or serializing an error can never reveal the key.
 */
export function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redact(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactDeep(v, secrets);
    return out;
  }
  return value;
}
