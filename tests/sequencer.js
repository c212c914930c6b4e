/**
 * Runs the longest test files first, so the last minutes of a run are not one long suite on one
 * worker while the others idle. jest's own sequencer does this from the durations it cached in
 * an earlier run; a fresh clone (CI) has no such cache, and jest then runs files it has no
 * duration for first, by file size, which puts short suites that spawn many processes (compat,
 * release, examples) last. So a file jest has no duration for takes the one measured here (in
 * seconds, in `make test-integration` on 2 cores); an integration file missing from the table runs
 * first. Unit suites have a table of their own (UNIT_SECONDS).
 */
const Sequencer = require("@jest/test-sequencer").default;
const path = require("path");

const MEASURED_SECONDS = {
  "tests/integration/malformedAnswersDynamic.test.ts": 220,
  "tests/integration/k8sClusterUpgrade.test.ts": 120,
  "tests/integration/release.test.ts": 134,
  "tests/reliability/badInput.test.ts": 116,
  "tests/integration/publicApiDialect.test.ts": 115,
  "tests/integration/storageEvent.test.ts": 113,
  "tests/integration/malformedAnswersPlugin.test.ts": 111,
  "tests/integration/storageEventOwnership.test.ts": 111,
  "tests/integration/compat.test.ts": 103,
  "tests/integration/typescriptVersions.test.ts": 70,
  "tests/reliability/faults.test.ts": 72,
  "tests/integration/plugin.test.ts": 71,
  "tests/integration/pluginPackageAdd.test.ts": 68,
  "tests/integration/examples.test.ts": 88,
  "tests/integration/testingExamples.test.ts": 100,
  "tests/reliability/interruptions.test.ts": 63,
  "tests/integration/stateUpgrade.test.ts": 90,
  "tests/integration/drift.test.ts": 65,
  "tests/integration/keyRotation.test.ts": 55,
  "tests/integration/upgradeSafetyPlugin.test.ts": 35,
  "tests/integration/upgradeSafetyDynamic.test.ts": 25,
  "tests/integration/lookups.test.ts": 43,
  "tests/integration/yaml.test.ts": 40,
  "tests/integration/largeStack.test.ts": 40,
  "tests/reliability/malformedAnswers.test.ts": 33,
  "tests/integration/languageExamples.test.ts": 31,
  "tests/reliability/ctrlC.test.ts": 30,
  "tests/reliability/secrets.test.ts": 29,
  "tests/reliability/killedRuns.test.ts": 28,
  "tests/reliability/auth.test.ts": 26,
  "tests/integration/pythonProgram.test.ts": 25,
  "tests/integration/multiAccount.test.ts": 21,
  "tests/integration/providerMove.test.ts": 48,
  "tests/integration/multiAccountTs.test.ts": 37,
  "tests/integration/lookupOptions.test.ts": 18,
  "tests/integration/driftSilentBackend.test.ts": 18,
  "tests/integration/engine-smoke.test.ts": 15,
  "tests/integration/goProgram.test.ts": 14,
  "tests/integration/javaPrograms.test.ts": 150,
  "tests/integration/pluginSchemaUpgrade.test.ts": 50,
  "tests/integration/generatedSdks.test.ts": 8,
};

/**
 * The unit suites that take seconds of waiting on their simulators' timers (in seconds, in `make
 * test-unit`), so they start first; every other unit suite counts as one second and runs after
 * them, in no particular order.
 */
const UNIT_SECONDS = {
  "tests/unit/resources/k8sUpgradeLock.test.ts": 30,
  "tests/unit/drift/timeouts.test.ts": 19,
  "tests/unit/api/malformed.test.ts": 12,
  "tests/unit/api/malformedStall.test.ts": 17,
  "tests/unit/resources/malformedAnswers.test.ts": 16,
  "tests/unit/resources/storageEvent.test.ts": 15,
  "tests/unit/resources/k8sClusterUpgrade.test.ts": 11,
  "tests/unit/tasks/waitForTask.test.ts": 10,
  "tests/unit/plugin/server.test.ts": 8,
  "tests/unit/api/transport.test.ts": 8,
};

class LongestFirst extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    const file = path.relative(test.context.config.rootDir, test.path).split(path.sep).join("/");
    if (file.startsWith("tests/unit/")) return (UNIT_SECONDS[file] ?? 1) * 1000;
    const measured = MEASURED_SECONDS[file];
    return measured === undefined ? undefined : measured * 1000;
  }
}

module.exports = LongestFirst;
module.exports.MEASURED_SECONDS = MEASURED_SECONDS;
module.exports.UNIT_SECONDS = UNIT_SECONDS;
