/**
 * Every error class the package exports is a CloudPlatformError, so one
 * `catch (e) { if (e instanceof CloudPlatformError) ... }` catches whatever the package throws,
 * the lifecycles' and the plugin's errors as well as the client's. Read from the sources, so an
 * error class added later is held to the rule too.
 */
import * as fs from "fs";
import * as path from "path";

const PROVIDER = path.resolve(__dirname, "../../provider");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith(".ts") ? [p] : [];
  });
}

/** Each exported class of provider/ with the class it extends. */
const PARENT = new Map(
  sources(PROVIDER).flatMap((file) => [...fs.readFileSync(file, "utf8").matchAll(/^export class (\w+) extends (\w+)/gm)].map((m) => [m[1] as string, m[2] as string] as const)),
);

function ancestry(name: string): string[] {
  const chain = [name];
  for (let at = PARENT.get(name); at !== undefined; at = PARENT.get(at)) chain.push(at);
  return chain;
}

const ERROR_CLASSES = [...PARENT.keys()].filter((name) => name.endsWith("Error") && name !== "CloudPlatformError");

test("the sources export the error classes this test is about", () => {
  expect(ERROR_CLASSES).toEqual(expect.arrayContaining(["NotFoundError", "UpgradeRejectedError", "ClusterUnhealthyError", "CustomTimeoutError", "InvalidRequestError", "LookupArgumentError"]));
});

test.each(ERROR_CLASSES)("%s extends CloudPlatformError", (name) => {
  expect(ancestry(name)).toContain("CloudPlatformError");
});

/**
 * Where a plain `Error` may still be thrown: the drift CLI's usage errors (its own `catch` prints
 * them with the usage text) and the body reader's transport errors (mapped to a ConnectionError
 * before a caller sees them).
 */
const PLAIN_THROWS_ALLOWED = ["drift/options.ts", "drift/shard.ts", "api/responseBody.ts"];

test("no other source throws a plain Error or a RangeError", () => {
  const offenders = sources(PROVIDER)
    .filter((file) => !file.endsWith(".test.ts") && !PLAIN_THROWS_ALLOWED.includes(path.relative(PROVIDER, file).split(path.sep).join("/")))
    .flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (/(\bthrow|\breject\()\s*(Object\.assign\()?new (Range|Type)?Error\(/.test(line) ? [`${path.relative(PROVIDER, file)}:${i + 1}`] : [])),
    );
  expect(offenders).toEqual([]);
});
