/**
 * package-lock.json agrees with package.json on what describes this package itself (name,
 * version, bins, dependencies). `npm ci` does not compare the root entry's bins, so a bin added to
 * package.json without `npm install` left a lock that every later `npm install` rewrote.
 */
import * as fs from "fs";
import * as path from "path";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), "utf8")) as Record<string, unknown>;

const manifest = readJson("package.json");
const lock = readJson("package-lock.json") as { packages?: Record<string, Record<string, unknown>> };
const root = lock.packages?.[""] ?? {};

test.each(["name", "version", "bin", "dependencies", "devDependencies", "peerDependencies", "engines"])("the lock's root entry has package.json's %s", (field) => {
  expect(root[field]).toEqual(manifest[field]);
});
