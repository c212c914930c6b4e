/**
 * The simulator's clock.
 *
 * Task timing is specified in simulated seconds (CONTRACT.md), while tests need the engine to
 * run much faster than a real cloud. Rather than keeping a separate simulated epoch (which would
 * drift from wall-clock timestamps and be hard to persist), the clock keeps real wall-clock time
 * and converts simulated durations into real milliseconds by dividing by `timeScale`. Task
 * schedules are stored as absolute real timestamps, so a state file reloaded after a restart
 * continues every task exactly where it was.
 */

/** Source of "now" in epoch milliseconds; injectable so unit tests can control time. */
export type TimeSource = () => number;

/**
 * Converts between simulated seconds and real time.
 *
 * Why a class: the server, the task engine and the routes share one instance so that a
 * single `timeScale` governs every duration.
 */
export class Clock {
  /** Simulated seconds per real second; 10 makes every task ten times faster. */
  readonly timeScale: number;
  private readonly source: TimeSource;

  /**
   * @param timeScale simulated seconds per real second (must be > 0)
   * @param source where real time comes from (defaults to `Date.now`)
   */
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
