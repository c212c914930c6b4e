/**
 * Runs the longest test files first, so the last minutes of a run are not one long suite on one
 * worker while the others idle. jest's own sequencer does this from the durations it cached in
 * an earlier run; a fresh clone (CI) has no such cache, and jest then runs files it has no
 * duration for first, by file size, which puts short suites that spawn many processes (compat,
 * release, examples) last. So a file jest has no duration for takes the one measured here (in
 * seconds, in `make test-integration` on 2 cores); a file missing from the table runs first.
 */
const Sequencer = require("@jest/test-sequencer").default;
const path = require("path");

const MEASURED_SECONDS = {
  "tests/integration/malformedAnswersDynamic.test.ts": 244,
  "tests/integration/compat.test.ts": 166,
  "tests/reliability/badInput.test.ts": 152,
  "tests/integration/k8sClusterUpgrade.test.ts": 141,
  "tests/integration/malformedAnswersPlugin.test.ts": 115,
  "tests/integration/plugin.test.ts": 108,
  "tests/integration/examples.test.ts": 96,
  "tests/integration/release.test.ts": 95,
  "tests/integration/storageEvent.test.ts": 93,
  "tests/integration/storageEventOwnership.test.ts": 93,
  "tests/integration/pluginPackageAdd.test.ts": 80,
  "tests/reliability/faults.test.ts": 79,
  "tests/reliability/interruptions.test.ts": 65,
  "tests/integration/lookups.test.ts": 62,
  "tests/integration/largeStack.test.ts": 44,
  "tests/integration/pythonProgram.test.ts": 35,
  "tests/reliability/ctrlC.test.ts": 33,
  "tests/reliability/killedRuns.test.ts": 32,
  "tests/reliability/secrets.test.ts": 31,
  "tests/reliability/malformedAnswers.test.ts": 31,
  "tests/reliability/auth.test.ts": 27,
  "tests/integration/languageExamples.test.ts": 27,
  "tests/integration/multiAccount.test.ts": 23,
  "tests/integration/engine-smoke.test.ts": 21,
  "tests/integration/goProgram.test.ts": 18,
  "tests/integration/generatedSdks.test.ts": 5,
};

class LongestFirst extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    const measured = MEASURED_SECONDS[path.relative(test.context.config.rootDir, test.path).split(path.sep).join("/")];
    return measured === undefined ? undefined : measured * 1000;
  }
}

module.exports = LongestFirst;
module.exports.MEASURED_SECONDS = MEASURED_SECONDS;
