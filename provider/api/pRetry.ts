/**
 * p-retry, loaded from this CommonJS package.
 *
 * Why this module: p-retry 7 is an ES module. Node >= 20.19 `require()`s an ES module natively
 * and returns its namespace (`{ default, AbortError, makeRetriable }`), but TypeScript's
 * `import pRetry from "p-retry"` compiles under `"module": "commonjs"` to an `__importDefault`
 * wrapper that only works when the namespace carries `__esModule`, which not every Node release
 * adds. A typed `require` of the namespace works on all of them, and under jest (which
 * transforms p-retry to CommonJS, see jest.config.js).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pRetryModule = require("p-retry") as typeof import("p-retry");

/** p-retry's `pRetry` function. */
export const pRetry: typeof pRetryModule.default = pRetryModule.default;

/** Thrown from an attempt, ends the loop at once with the error it wraps, calling no hook. */
export const AbortError: typeof pRetryModule.AbortError = pRetryModule.AbortError;
