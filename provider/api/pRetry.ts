/**
 * p-retry, loaded from this CommonJS package.
 *
 * Why this module: p-retry 7 is an ES module. Node >= 20.19 `require()`s an ES module natively
 * and returns its namespace (`{ default, AbortError, makeRetriable }`), but TypeScript's
 * `import pRetry from "p-retry"` compiles under `"module": "commonjs"` to an `__importDefault`
 * wrapper that only works when the namespace carries `__esModule`, which not every Node release
 * adds. A typed `require` of the namespace works on all of them, and under jest (which
 * transforms p-retry to CommonJS, see jest.config.js).
 *
 * Why loaded at the first retry loop and not with this module: jest 29's own module loader
 * cannot `require()` an ES module at all, so a user's jest test that only imports this package
 * (a unit test under Pulumi's mocks, which sends no request) failed to load it. A test that
 * sends requests from the jest process still needs jest to transform p-retry (the testing guide
 * says how).
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
