/**
 * jest for a Pulumi program: TypeScript through ts-jest, transpiled only (tsconfig.json sets
 * isolatedModules; `tsc --noEmit` checks the types), and time enough for the integration test's
 * `pulumi up`, `refresh` and `destroy`.
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  testMatch: ["<rootDir>/*.test.ts"],
  transform: { "^.+\\.ts$": "ts-jest" },
  testTimeout: 300000,
};
