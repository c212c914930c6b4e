/**
 * The simulator's clock: real wall-clock time, with simulated durations (CONTRACT.md "Tasks")
 * converted to real milliseconds by dividing by `timeScale`.
 *
 * Why no simulated epoch: task schedules are stored as absolute real timestamps, so a state file
 * reloaded after a restart continues every task where it was, and timestamps never drift from
 * the wall clock.
 */

/** Source of "now" in epoch milliseconds; injectable so unit tests can control time. */
export type TimeSource = () => number;

/** Converts simulated seconds to real time; one instance serves the whole simulator. */
export class Clock {
  /** Simulated seconds per real second; 10 makes every task ten times faster. */
  readonly timeScale: number;
  private readonly source: TimeSource;

  /** @param timeScale simulated seconds per real second (must be > 0) */
  constructor(timeScale = 1, source: TimeSource = Date.now) {
    if (!Number.isFinite(timeScale) || timeScale <= 0) {
      throw new Error(`timeScale must be a positive number, got ${String(timeScale)}`);
    }
    this.timeScale = timeScale;
    this.source = source;
  }

  /** Real epoch milliseconds now; every timestamp the simulator records comes from here. */
  now(): number {
    return this.source();
  }

  /** Real milliseconds that `seconds` simulated seconds take at this clock's scale. */
  simSecondsToMs(seconds: number): number {
    return (seconds * 1000) / this.timeScale;
  }
}

/**
 * Formats epoch milliseconds the way the cloud API writes timestamps: ISO 8601 without a zone
 * suffix and without fractions (`2019-06-25T08:42:42`, UTC), as in the spec's task fields.
 */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}
