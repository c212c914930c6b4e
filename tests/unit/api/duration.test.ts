/**
 * The one way the package writes a duration: tenths of a second below a minute (milliseconds
 * below a second), minutes and whole seconds above; progress lines in whole seconds throughout.
 */
import { formatDuration } from "../../../provider/api/duration";

test.each([
  { ms: 0, tenths: "0ms", seconds: "0s" },
  { ms: 450, tenths: "450ms", seconds: "0s" },
  { ms: 999.6, tenths: "1s", seconds: "1s" },
  { ms: 1500, tenths: "1.5s", seconds: "2s" },
  { ms: 12_000, tenths: "12s", seconds: "12s" },
  { ms: 40_400, tenths: "40.4s", seconds: "40s" },
  { ms: 59_960, tenths: "1m", seconds: "1m" },
  { ms: 60_000, tenths: "1m", seconds: "1m" },
  { ms: 90_000, tenths: "1m30s", seconds: "1m30s" },
  { ms: 119_600, tenths: "2m", seconds: "2m" },
  { ms: 125_000, tenths: "2m5s", seconds: "2m5s" },
  { ms: 30 * 60_000, tenths: "30m", seconds: "30m" },
  { ms: -5, tenths: "0ms", seconds: "0s" },
])("$ms ms: $tenths, in whole seconds $seconds", ({ ms, tenths, seconds }) => {
  expect(formatDuration(ms)).toBe(tenths);
  expect(formatDuration(ms, "seconds")).toBe(seconds);
});
