/**
 * The unit tests' time limit: 30 s for each test and hook (set here because jest 29 reads
 * `testTimeout` only for the whole run, and the integration suites need minutes).
 *
 * Why so short: a unit test waits on nothing slow (clocks are injected, the simulator is local),
 * so one that hangs must fail in seconds, not after the integration suites' ten minutes.
 */
jest.setTimeout(30_000);
