/**
 * Validation errors of lookups carry no stack frames inside this package (its sources or
 * `dist/`): the message is the interface, and a frame such as `provider/lookups/validate.ts:69`
 * only sends the user into our code. The caller's own frames stay, so the failing call in their
 * program can still be found.
 */
import * as path from "path";
import { getInstances, getInstancesOutput, getRegion, LookupArgumentError, LookupMatchError } from "../../../sdk/nodejs";
import { simulatorViaEnvironment } from "./helpers";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const INTERNAL = ["provider", "sdk", "simulator", "dist"].map((d) => path.join(REPO_ROOT, d) + path.sep);

simulatorViaEnvironment();

function frames(err: unknown): string[] {
  return String((err as Error).stack)
    .split("\n")
    .filter((l) => /^\s+at /.test(l));
}

function internalFrames(err: unknown): string[] {
  return frames(err).filter((l) => INTERNAL.some((d) => l.includes(d)));
}

describe("lookup validation errors", () => {
  it("of the Promise form have no frames inside the package", async () => {
    const err = await getInstances({ projectId: 1, regionId: 76, pageSize: 5000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LookupArgumentError);
    expect(String((err as Error).stack).split("\n")[0]).toBe("LookupArgumentError: getInstances: pageSize must be an integer from 1 to 1000; got 5000");
    expect(internalFrames(err)).toEqual([]);
  });

  it("of the Output form have no frames inside the package, and keep the caller's frame", () => {
    let err: unknown;
    try {
      getInstancesOutput({ projectId: 1, regionId: 76, pageSize: 5000 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LookupArgumentError);
    expect(internalFrames(err)).toEqual([]);
    expect(frames(err).some((l) => l.includes(path.join("tests", "unit", "lookups", "errorFrames.test.ts")))).toBe(true);
  });

  it("of a choice that matches nothing (LookupMatchError) have no frames inside the package", async () => {
    const err = await getRegion({ name: "Atlantis" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LookupMatchError);
    expect((err as Error).message).toMatch(/^getRegion: /);
    expect(internalFrames(err)).toEqual([]);
  });
});
