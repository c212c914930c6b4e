/**
 * The Go SDK's publication check (tools/release/goModule.js): the tag that publishes the module,
 * and the mismatches that would make `go get` of that tag fail.
 */
import * as path from "path";

interface GoCheck {
  tag: string;
  modulePath: string;
  problems: string[];
}
interface GoModuleTool {
  goModuleTag(go: { version: string; importBasePath: string; packageDir: string; moduleDir: string; goMod: string }): GoCheck;
  repositoryGoModule(root?: string): GoCheck;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tool = require("../../../tools/release/goModule.js") as GoModuleTool;

const REPO = "github.com/acme/pulumi-cloudplatform";
const base = { importBasePath: `${REPO}/sdk/go/cloudplatform`, packageDir: "sdk/go/cloudplatform", moduleDir: "sdk" };

test("the repository's Go SDK is ready to tag as sdk/v<package.json version>", () => {
  const { version } = require(path.resolve(__dirname, "../../../package.json")) as { version: string }; // eslint-disable-line @typescript-eslint/no-require-imports
  expect(tool.repositoryGoModule()).toEqual({ tag: `sdk/v${version}`, modulePath: "github.com/pulumi-cloudplatform/pulumi-cloudplatform/sdk", problems: [] });
});

test("a module in a subdirectory is tagged with its directory; from v2 on its path ends in the major version", () => {
  expect(tool.goModuleTag({ ...base, version: "0.4.1", goMod: `module ${REPO}/sdk\n\ngo 1.25\n` })).toEqual({ tag: "sdk/v0.4.1", modulePath: `${REPO}/sdk`, problems: [] });
  expect(tool.goModuleTag({ ...base, version: "2.0.0", goMod: `module ${REPO}/sdk/v2\n` }).problems).toEqual([]);
  expect(tool.goModuleTag({ ...base, version: "2.0.0", goMod: `module ${REPO}/sdk\n` }).problems).toEqual([
    `sdk/go.mod declares module ${REPO}/sdk; version 2.0.0 in sdk needs ${REPO}/sdk/v2`,
  ]);
  expect(tool.goModuleTag({ ...base, moduleDir: "", packageDir: "go/cloudplatform", importBasePath: `${REPO}/go/cloudplatform`, version: "1.0.0", goMod: `module ${REPO}\n` })).toEqual({
    tag: "v1.0.0",
    modulePath: REPO,
    problems: [],
  });
});

test("an import path outside the module and a local replace are reported", () => {
  const wrongImport = tool.goModuleTag({ ...base, importBasePath: "github.com/acme/other/cloudplatform", version: "0.1.0", goMod: `module ${REPO}/sdk\n` });
  expect(wrongImport.problems[0]).toMatch(/importBasePath github.com\/acme\/other\/cloudplatform does not end in the package directory sdk\/go\/cloudplatform/);
  const replaced = tool.goModuleTag({ ...base, version: "0.1.0", goMod: `module ${REPO}/sdk\n\nreplace github.com/pulumi/pulumi/sdk/v3 => ../../pulumi/sdk\n\nreplace (\n\texample.com/x v1.0.0 => ./x\n\texample.com/y => example.com/z v1.2.0\n)\n` });
  expect(replaced.problems).toEqual([
    "sdk/go.mod replaces github.com/pulumi/pulumi/sdk/v3 with the local path ../../pulumi/sdk, which users of the tag cannot resolve",
    "sdk/go.mod replaces example.com/x with the local path ./x, which users of the tag cannot resolve",
  ]);
});
