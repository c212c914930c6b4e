/**
 * How the client's messages name its options.
 *
 * Why: the client is also a public library (`pulumi-cloudplatform/api`), so its errors speak of
 * its own options (`apiKey`, `baseUrl`, ...). A caller that fills those options from elsewhere
 * (the provider from Pulumi config and environment variables) passes {@link OptionSources}, and
 * the same messages then tell its user where to set the value instead.
 */

/** The client options a message may tell the user to set. */
export type ClientOptionName = "baseUrl" | "apiKey" | "allowInsecureHttp" | "maxConcurrentRequests" | "resellerPaths";

/** For each option, the words naming where the user sets it (default: the client option itself). */
export type OptionSources = Readonly<Partial<Record<ClientOptionName, string>>>;

/** Where `option` is set, as a message says it. */
export function sourceOf(option: ClientOptionName, sources: OptionSources | undefined): string {
  return sources?.[option] ?? `the client option \`${option}\``;
}
