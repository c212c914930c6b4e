/**
 * A constant, not a read of package.json: the compiled output must not depend on where
 * package.json sits relative to `dist/`. A unit test keeps it in step with package.json.
 */
export const VERSION = "0.1.0";

/** The default `User-Agent`, so operators can tell this provider's traffic apart in server logs. */
export const DEFAULT_USER_AGENT = `pulumi-cloudplatform/${VERSION}`;
