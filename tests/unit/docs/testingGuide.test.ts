/**
 * The testing guide's starting configuration for TypeScript is the one the runnable example uses
 * (examples/testing-typescript, run by tests/integration/testingExamples.test.ts and compiled with
 * TypeScript 5, 6 and 7 by typescriptVersions.test.ts): its `jest.config.js` settings and its
 * `tsconfig.json`, word for word.
 */
import * as fs from "fs";
import * as path from "path";
import { readPage, REPO_ROOT } from "./markdown";

const guide = readPage("docs/guides/testing.md");
const example = (file: string): string => fs.readFileSync(path.join(REPO_ROOT, "examples/testing-typescript", file), "utf8");

/** The fenced blocks of `lang` in the guide. */
function blocks(lang: string): string[] {
  return [...guide.matchAll(new RegExp("^```" + lang + "\\n([\\s\\S]*?)^```$", "gm"))].map((m) => m[1] as string);
}

test("the guide's tsconfig.json is the example's", () => {
  expect(blocks("json")).toContain(example("tsconfig.json"));
});

test("the guide's jest.config.js is the example's, timeout included", () => {
  const config = example("jest.config.js");
  const exported = config.slice(config.indexOf("/** @type"));
  expect(blocks("js")).toContain(exported);
  expect(exported).toMatch(/testTimeout: \d{6}/);
});
