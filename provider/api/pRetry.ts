/**
 * p-retry 7 (an ES module) from this CommonJS package: a typed `require` of its namespace,
 * since `import pRetry` compiles to an `__importDefault` that needs `__esModule`, which not every
 * Node release adds. Loaded at the first retry loop: jest 29's loader cannot `require()` an ES
 * module, and a user's mock-only test must still load this package.
 */
type PRetryModule = typeof import("p-retry");

let loaded: PRetryModule | undefined;

function pRetryModule(): PRetryModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require("p-retry") as PRetryModule;
  return loaded;
}

/** p-retry's `pRetry` function. */
export const pRetry = ((...args: Parameters<PRetryModule["default"]>) => pRetryModule().default(...args)) as PRetryModule["default"];

/** p-retry's AbortError around `error`: thrown from an attempt, it ends the loop at once with `error`, calling no hook. */
export function abortRetries(error: Error): Error {
  return new (pRetryModule().AbortError)(error);
}
