/**
 * Errors the dynamic-provider host would print a second time, with a stack trace.
 *
 * Why: `@pulumi/pulumi`'s dynamic-provider host (`cmd/dynamic-provider`, 3.248) answers a failed
 * `check`, `diff`, `read` or `delete` by writing `${err}: ${err.stack}` to stderr and then
 * failing the call with the error's message. The engine shows that stderr line on the stack's
 * row: the message twice more (`Name: message: Name: message`) and the stack trace into this
 * package, beside the engine's own error line, which already says everything. So the errors
 * this package hands the host are remembered, and the host's console line for exactly such an
 * error is left out; every other line (a bug's uncaught error, anything else) is printed.
 */

/** Errors handed to the host and not yet printed by it (a few at a time: calls fail one by one). */
const handed: Error[] = [];
const MAX_REMEMBERED = 64;
let installed = false;

/** The line the host writes for `err`. */
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
