/**
 * Two jest projects: fast unit tests (each file starts its own simulator) and integration tests
 * that drive the real Pulumi CLI (the Makefile runs them five at a time, then the
 * timing-sensitive ones two at a time; tests/sequencer.js starts the longest first).
 *
 * ts-jest only transpiles (tsconfig.jest.json sets isolatedModules): `make typecheck`
 * type-checks every test with tsc (`make test` runs it beside the unit tests), so checking each
 * file again inside every jest worker was the same work twice.
 */
const tsJest = ["ts-jest", { tsconfig: "tsconfig.jest.json" }];

/**
 * p-retry 7 and its one dependency, is-network-error, are ES modules. Node >= 20.19 require()s
 * them natively (that is how the provider loads them), but jest 29 has its own module loader,
 * which cannot: it would run their `import`/`export` as CommonJS and fail. So jest transforms
 * just these two packages to CommonJS with ts-jest (TypeScript compiles plain JS with allowJs)
 * instead of ignoring them like the rest of node_modules. Loaded through jest's own loader, they
 * also see jest's fake timers, which the retry tests use.
 */
const ESM_PACKAGES = ["p-retry", "is-network-error"];
const esmToCommonJs = [
  "ts-jest",
  { tsconfig: { allowJs: true, module: "commonjs", target: "ES2022", esModuleInterop: true }, diagnostics: false },
];
const transform = {
  "^.+\\.ts$": tsJest,
  [`node_modules/(${ESM_PACKAGES.join("|")})/.+\\.js$`]: esmToCommonJs,
};
const transformIgnorePatterns = [`/node_modules/(?!(${ESM_PACKAGES.join("|")})/)`];

/** @type {import('jest').Config} */
module.exports = {
  // jest 29 reads testTimeout only at the top level: real Pulumi runs take minutes. The unit
  // project sets its own 30 s limit in tests/unit/timeout.ts.
  testTimeout: 600000,
  testSequencer: "<rootDir>/tests/sequencer.js",
  // test.concurrent cases that mostly wait on a timer (malformedStall.test.ts: a client timeout
  // per attempt) all wait at once instead of five at a time.
  maxConcurrency: 40,
  projects: [
    {
      displayName: "unit",
      testEnvironment: "node",
      testMatch: ["<rootDir>/tests/unit/**/*.test.ts"],
      setupFilesAfterEnv: ["<rootDir>/tests/unit/timeout.ts"],
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: "integration",
      testEnvironment: "node",
      testMatch: ["<rootDir>/tests/integration/**/*.test.ts", "<rootDir>/tests/reliability/**/*.test.ts"],
      transform,
      transformIgnorePatterns,
    },
  ],
};
