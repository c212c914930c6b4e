/**
 * Two jest projects: fast unit tests (each file starts its own simulator) and
 * integration tests that drive the real Pulumi CLI, run serially (`--runInBand`).
 */
const tsJest = ["ts-jest", { tsconfig: "tsconfig.test.json", diagnostics: { warnOnly: false } }];

/** @type {import('jest').Config} */
module.exports = {
  // jest 29 reads testTimeout only at the top level; real Pulumi runs take minutes.
  testTimeout: 600000,
  projects: [
    {
      displayName: "unit",
      testEnvironment: "node",
      testMatch: ["<rootDir>/tests/unit/**/*.test.ts"],
      transform: { "^.+\\.ts$": tsJest },
    },
    {
      displayName: "integration",
      testEnvironment: "node",
      testMatch: ["<rootDir>/tests/integration/**/*.test.ts", "<rootDir>/tests/reliability/**/*.test.ts"],
      transform: { "^.+\\.ts$": tsJest },
    },
  ],
};
