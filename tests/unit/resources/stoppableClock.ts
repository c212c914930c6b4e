/**
 * The simulator's time for lifecycle tests: real time, except while stopped (its tasks then
 * stand still), going on from where it stopped.
 *
 * Why: a test that needs "the task is still running when the lifecycle looks again" must not
 * depend on how fast this machine gets there. The test stops the clock before the task starts
 * and lets it go when the lifecycle begins to wait on the task (its first progress line).
 */
export class StoppableClock {
  private stoppedAt: number | undefined;
  private lostMs = 0;

  /** The time source to give `startSimulator({ now })`. */
  readonly now = (): number => (this.stoppedAt ?? Date.now()) - this.lostMs;

  /** From now on, no simulated time passes. */
  stop(): void {
    this.stoppedAt ??= Date.now();
  }

  /** Time passes again, from where it stopped. */
  go(): void {
    if (this.stoppedAt === undefined) return;
    this.lostMs += Date.now() - this.stoppedAt;
    this.stoppedAt = undefined;
  }
}

/** Whether a lifecycle's log line is the task waiter's progress report: the lifecycle now waits on the task. */
export function isTaskProgress(line: string): boolean {
  return /elapsed \(task /.test(line);
}
