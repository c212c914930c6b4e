/**
 * `pulumi-cloudplatform/testing`: what users' own tests need.
 *
 * - Integration tests: {@link startTestSimulator} starts the package's simulator of the whole API
 *   inside the test process with a seed of your choosing, and says how to point a program or the
 *   Automation API at it (`env`, `stackConfig`), what it received (`requests`) and how to break
 *   it (`injectFaults`, `injectMalformed`, `failNextTask`); {@link connectTestSimulator} does the
 *   same for one started with `npx cloudplatform-simulator`.
 * - Unit tests under Pulumi's mocks: {@link checkResourceInputs} runs the input checks
 *   `pulumi preview` runs, which no provider runs under mocks; {@link settle} waits for an
 *   Output and rejects when it failed (where `apply` never runs).
 *
 * Why a separate entry: none of this belongs in a program, and the main entry stays what a
 * program loads. `pulumi-cloudplatform/simulator` remains the simulator server itself.
 */
export { checkResourceInputs, type CheckFailure } from "./check";
export { settle } from "./settle";
export {
  connectTestSimulator,
  defaultSeed,
  startTestSimulator,
  type MalformedAnswers,
  type RequestFilter,
  type SimulatorAddress,
  type SimulatorSeed,
  type TestSimulator,
} from "./simulator";
export type { FaultConfig, RequestLogEntry, SimState, SimulatorOptions } from "../../../simulator";
