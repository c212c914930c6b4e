/**
 * The error of a rejected lookup argument.
 *
 * Why its own class: a bad argument is the caller's mistake and is caught before any request,
 * so the message must say which lookup, which argument, what is allowed and what was given, and
 * programs (or tests) can tell it apart from an API failure by class.
 */
import { CloudPlatformError } from "../api/errors";

/** A lookup argument failed validation; thrown before any request is sent. */
export class LookupArgumentError extends CloudPlatformError {
  /** The lookup, e.g. `getResellerTotals`. */
  readonly lookup: string;
  /** The argument at fault, e.g. `metric`. */
  readonly argument: string;

  /**
   * @param lookup  the lookup's public name
   * @param argument the argument's name as the user wrote it
   * @param problem what is wrong, starting after the argument name (`must be one of ...; got "x"`)
   */
  constructor(lookup: string, argument: string, problem: string) {
    super(`${lookup}: ${argument} ${problem}`);
    this.lookup = lookup;
    this.argument = argument;
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

  constructor(lookup: string, matches: number, message: string) {
    super(`${lookup}: ${message}`);
    this.lookup = lookup;
    this.matches = matches;
  }
}
