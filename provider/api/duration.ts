/**
 * Why one function: a user reads "30m" in a timeout, "2m5s" on a progress row and "1.5s" in a
 * drift report; one writing of time throughout reads as one product.
 */

/**
 * `450ms`, `1.5s`, `1m30s`, `2m`; with `"seconds"`, rounded to whole seconds first (`0s`,
 * `40s`, `2m5s`) for progress lines that tick on every poll. Negative durations read as zero.
 */
export function formatDuration(ms: number, precision: "tenths" | "seconds" = "tenths"): string {
  const exact = Math.max(0, ms);
  if (precision === "tenths" && Math.round(exact) < 1000) return `${Math.round(exact)}ms`;
  const tenths = Math.round(exact / 100) / 10;
  if (precision === "tenths" && tenths < 60) return `${tenths}s`;
  const seconds = Math.round(exact / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return seconds % 60 ? `${minutes}m${seconds % 60}s` : `${minutes}m`;
}
