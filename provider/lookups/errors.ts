/**
 * The error of a rejected lookup argument.
 *
 * Why its own class: a bad argument is the caller's mistake and is caught before any request,
 * so the message must say which lookup, which argument, what is allowed and what was given, and
 * programs (or tests) can tell it apart from an API failure by class.
 */
import * as fs from "fs";
import * as path from "path";
import { CloudPlatformError } from "../api/errors";

/**
 * This package's directories whose frames are internal: its sources and its build output. Found
 * from this file's place (`provider/lookups/` in the sources, `dist/provider/lookups/` built).
 */
const INTERNAL_DIRS: readonly string[] = (() => {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown };
      if (manifest.name === "pulumi-cloudplatform") return ["provider", "sdk", "simulator", "dist"].map((d) => path.join(dir, d) + path.sep);
    } catch {
      // no package.json here: keep walking up
    }
  }
  return [];
})();

/**
 * `stack` without the frames inside this package: a validation error's message is the whole
 * story, and frames such as `provider/lookups/validate.ts:69` only send users into our sources.
 * The caller's own frames (their program) stay, so the failing call can still be found.
 */
export function withoutInternalFrames(stack: string | undefined): string | undefined {
  if (stack === undefined || INTERNAL_DIRS.length === 0) return stack;
  return stack
    .split("\n")
    .filter((line) => !(/^\s+at /.test(line) && INTERNAL_DIRS.some((d) => line.includes(d))))
    .join("\n");
}

/** A lookup argument failed validation; thrown before any request is sent. */
export class LookupArgumentError extends CloudPlatformError {
  /** The lookup, e.g. `getResellerTotals`. */
  readonly lookup: string;
  /** The argument at fault, e.g. `metric`. */
  readonly argument: string;

  /**
   * @internal
   * @param lookup  the lookup's public name
   * @param argument the argument's name as the user wrote it
   * @param problem what is wrong, starting after the argument name (`must be one of ...; got "x"`)
   */
  constructor(lookup: string, argument: string, problem: string) {
    super(`${lookup}: ${argument} ${problem}`);
    this.lookup = lookup;
    this.argument = argument;
    this.stack = withoutInternalFrames(this.stack);
  }
}

/**
 * No single item matched a lookup's choice (zero or several projects or regions).
 *
 * Why separate from argument errors: the arguments were valid, the data did not fit; the
 * message names the candidates so the user can fix the choice.
 */
export class LookupMatchError extends CloudPlatformError {
  /** The lookup, e.g. `getRegion`. */
  readonly lookup: string;
  /** How many items matched (0 or more than 1). */
  readonly matches: number;

  /** @internal */
  constructor(lookup: string, matches: number, message: string) {
    super(`${lookup}: ${message}`);
    this.lookup = lookup;
    this.matches = matches;
    this.stack = withoutInternalFrames(this.stack);
  }
}

/**
 * A lookup was given an invoke option (`opts`) it cannot honour; thrown before any request.
 *
 * Why its own class: an option that is silently dropped sends a lookup to the wrong account
 * without a word (a provider of another package, an option lookups do not have), so each one a
 * lookup cannot honour is refused, naming the option and what to do instead.
 */
export class LookupOptionError extends CloudPlatformError {
  /** The lookup, e.g. `getProject`. */
  readonly lookup: string;
  /** The option at fault, e.g. `provider`. */
  readonly option: string;

  /**
   * @internal
   * @param lookup  the lookup's public name
   * @param option  the option's name in `opts`; empty for `opts` as a whole
   * @param problem what is wrong and what to do instead, starting after `opts.<option>`
   */
  constructor(lookup: string, option: string, problem: string) {
    super(`${lookup}: opts${option ? `.${option}` : ""} ${problem}`);
    this.lookup = lookup;
    this.option = option;
    this.stack = withoutInternalFrames(this.stack);
  }
}
