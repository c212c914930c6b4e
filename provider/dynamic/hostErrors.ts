/**
 * `@pulumi/pulumi`'s dynamic-provider host (`cmd/dynamic-provider`, 3.248) answers a failed
 * `check`, `diff`, `read` or `delete` by writing `${err}: ${err.stack}` to stderr, which the
 * engine shows beside its own error line: the message twice more and a stack trace into this
 * package. So the errors this package hands the host are remembered, and the host's console line
 * for exactly such an error is left out; every other line is printed unchanged.
 */

/** Errors handed to the host and not yet printed by it (a few at a time: calls fail one by one). */
const handed: Error[] = [];
const MAX_REMEMBERED = 64;
let installed = false;

function hostLine(err: Error): string {
  return `${String(err)}: ${String(err.stack)}`;
}

/** `print`, less the host's console line of each error {@link handOver} passed it (once per error). */
export function withoutHandedErrors(print: (...args: unknown[]) => void): (...args: unknown[]) => void {
  return (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string") {
      const at = handed.findIndex((e) => hostLine(e) === args[0]);
      if (at >= 0) {
        handed.splice(at, 1);
        return;
      }
    }
    print(...args);
  };
}

function install(): void {
  if (installed) return;
  installed = true;
  console.error = withoutHandedErrors(console.error.bind(console));
}

/** Remembers `err` as one the host will report through the engine; returns it for `throw`. */
export function handOver(err: unknown): unknown {
  install();
  if (err instanceof Error) {
    handed.push(err);
    if (handed.length > MAX_REMEMBERED) handed.shift();
  }
  return err;
}
