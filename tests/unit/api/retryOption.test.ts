/**
 * A bad `retry` option is the caller's mistake, refused when the client is created: a
 * ConfigurationError (so one `catch` of CloudPlatformError holds it) naming the field and the
 * values it takes.
 */
import { CloudPlatformError, ConfigurationError, createClient, type RetryPolicy } from "../../../provider/api";

test.each<[Partial<RetryPolicy>, string]>([
  [{ maxAttempts: 0 }, "maxAttempts must be an integer >= 1"],
  [{ maxAttempts: 1.5 }, "maxAttempts must be an integer >= 1"],
  [{ budgetMs: -1 }, "budgetMs must be >= 0"],
  [{ baseDelayMs: -1 }, "baseDelayMs must be >= 0"],
  [{ factor: 0.5 }, "factor must be >= 1"],
  [{ maxDelayMs: Number.NaN }, "maxDelayMs must be >= 0"],
  [{ jitter: 2 }, "jitter must be within 0..1"],
])("retry %j is refused by createClient with a ConfigurationError", (retry, problem) => {
  let caught: unknown;
  try {
    createClient({ baseUrl: "http://127.0.0.1:1", apiKey: "k", retry });
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ConfigurationError);
  expect(caught).toBeInstanceOf(CloudPlatformError);
  expect((caught as Error).message).toBe(`Invalid retry option: ${problem}`);
});
