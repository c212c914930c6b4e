/**
 * A reworded error is a copy: the caught one (which others may hold) keeps its message, and the
 * copy keeps the class and fields callers branch on, with the original as its cause.
 */
import * as fs from "fs";
import * as path from "path";
import { NotFoundError } from "../../provider/api/errors";
import { messageOf, reworded } from "../../provider/caughtErrors";

test("reworded: a copy of the same class and fields with the new message, the original as cause and unchanged", () => {
  const original = new NotFoundError({ status: 404, serverMessage: "no such cluster", method: "GET", path: "/cloud/v2/k8s/clusters/1/76/x", mayHaveActed: false });
  const copy = reworded(original, `${original.message} (read back: gone)`);
  expect(copy).toBeInstanceOf(NotFoundError);
  expect(copy).not.toBe(original);
  expect(copy.message).toBe(`${original.message} (read back: gone)`);
  expect(copy.status).toBe(404);
  expect(copy.serverMessage).toBe("no such cluster");
  expect(copy.cause).toBe(original);
  expect(copy.stack?.split("\n")[0]).toBe(`${copy.name}: ${copy.message}`);
  expect(original.message).not.toContain("read back");
  expect(Object.keys(copy)).toEqual(Object.keys(original));
});

test("messageOf: an Error's message, anything else as text", () => {
  expect(messageOf(new Error("boom"))).toBe("boom");
  expect(messageOf("plain")).toBe("plain");
  expect(messageOf(42)).toBe("42");
});

test("reworded with a stack: the copy carries that stack, the original keeps its own", () => {
  const original = new NotFoundError({ status: 404, serverMessage: "no such cluster", method: "GET", path: "/cloud/v2/k8s/clusters/1/76/x", mayHaveActed: false });
  const stack = original.stack;
  const copy = reworded(original, "shorter", "NotFoundError: shorter\n    at somewhere");
  expect(copy.stack).toBe("NotFoundError: shorter\n    at somewhere");
  expect(original.stack).toBe(stack);
});

test("no source of the package rewrites a caught error's message in place", () => {
  const root = path.resolve(__dirname, "../..");
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? sources(p) : e.name.endsWith(".ts") ? [p] : [];
    });
  const offenders = ["provider", "sdk/nodejs"]
    .flatMap((dir) => sources(path.join(root, dir)))
    .flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (/\.message\s*(\+?=)(?!=)/.test(line) && !/^\s*(\*|\/\/)/.test(line) ? [`${path.relative(root, file)}:${i + 1}`] : [])),
    );
  expect(offenders).toEqual([]);
});
