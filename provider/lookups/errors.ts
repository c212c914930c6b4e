/** Lookup errors that are the caller's mistake, told apart from API failures by class. */
import * as fs from "fs";
import * as path from "path";
import { CloudPlatformError } from "../api/errors";

/** This package's sources and build output, found from this file's place. */
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

/** Only the caller's own frames: the message is the whole story, our frames only mislead. */
export function withoutInternalFrames(stack: string | undefined): string | undefined {
  if (stack === undefined || INTERNAL_DIRS.length === 0) return stack;
  return stack
    .split("\n")
    .filter((line) => !(/^\s+at /.test(line) && INTERNAL_DIRS.some((d) => line.includes(d))))
    .join("\n");
}

/** A lookup argument failed validation; thrown before any request is sent. */
export class LookupArgumentError extends CloudPlatformError {
  /** E.g. `getResellerTotals`. */
  readonly lookup: string;
  /** E.g. `metric`. */
  readonly argument: string;

  /**
   * @internal
   * @param problem starts after the argument name (`must be one of ...; got "x"`)
   */
  constructor(lookup: string, argument: string, problem: string) {
    super(`${lookup}: ${argument} ${problem}`);
    this.lookup = lookup;
    this.argument = argument;
    this.stack = withoutInternalFrames(this.stack);
  }
}

/** Zero or several items matched a lookup's valid choice; the message names the candidates. */
export class LookupMatchError extends CloudPlatformError {
  readonly lookup: string;
  /** 0 or more than 1. */
  readonly matches: number;

  /** @internal */
  constructor(lookup: string, matches: number, message: string) {
    super(`${lookup}: ${message}`);
    this.lookup = lookup;
    this.matches = matches;
    this.stack = withoutInternalFrames(this.stack);
  }
}

/** An invoke option (`opts`) a lookup cannot honour: dropped silently, it could reach the wrong account. */
export class LookupOptionError extends CloudPlatformError {
  readonly lookup: string;
  /** E.g. `provider`; empty for `opts` as a whole. */
  readonly option: string;

  /**
   * @internal
   * @param problem what is wrong and what to do instead, starting after `opts.<option>`
   */
  constructor(lookup: string, option: string, problem: string) {
    super(`${lookup}: opts${option ? `.${option}` : ""} ${problem}`);
    this.lookup = lookup;
    this.option = option;
    this.stack = withoutInternalFrames(this.stack);
  }
}
