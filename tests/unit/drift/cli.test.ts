/**
 * The drift command's last guard: whatever it writes has the environment's API key redacted the
 * way every other output of the package has it (`[REDACTED]`), a refused command line included.
 */
import { main } from "../../../provider/drift/cli";

const KEY = "cpk_drift_0123456789abcdef";

test("a command line that echoes the key is refused with the key redacted", async () => {
  const saved = process.env.CLOUDPLATFORM_API_KEY;
  process.env.CLOUDPLATFORM_API_KEY = KEY;
  const written: string[] = [];
  const write = jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
  try {
    expect(await main(["--parallel", KEY])).toBe(2);
  } finally {
    write.mockRestore();
    if (saved === undefined) delete process.env.CLOUDPLATFORM_API_KEY;
    else process.env.CLOUDPLATFORM_API_KEY = saved;
  }
  expect(written.join("")).toContain('cloudplatform-drift: --parallel must be a positive integer, got "[REDACTED]"');
  expect(written.join("")).not.toContain(KEY.slice(0, 8));
});
