/**
 * The testing examples run as their users run them, each with its own test runner: the packed
 * package (`npm pack`) installed into a copy of examples/testing-typescript, whose jest runs its
 * unit tests under mocks and its integration test (the real CLI, the simulator started in the
 * test); examples/testing-python's pytest in a venv holding the generated SDK built as a wheel
 * (scripts/python-env.sh); examples/testing-go's `go test` binary, built against the checkout's
 * SDK (scripts/go-program.sh). The Python and Go suites start the simulator and find the plugin
 * through the bins of that same installed package, as `npm install -g` would put them on PATH.
 * Each test checks that exactly the example's tests ran and passed, by name, so a test that is
 * skipped or removed fails here. Needs dist/ built.
 */
import { execFile, execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { packPackage, withoutNpmScriptEnv } from "./compatProgram";
import { pulumiRoot, REPO_ROOT, suiteProcessEnv } from "./harness";

jest.setTimeout(900_000);

/** The test runner the Python example pins in its requirements.txt (the venv holds it beside the SDK). */
const PYTEST = (fs.readFileSync(path.join(REPO_ROOT, "examples/testing-python/requirements.txt"), "utf8").match(/^pytest==\S+$/m) ?? [""])[0];

let work: string;
/** Where the installed package's bins are linked: the plugin and the simulator, nothing else. */
let binDir: string;

/** Every variable a test runner needs: the CLI, the bins, an empty PULUMI_HOME, no downloads. */
function runnerEnv(): NodeJS.ProcessEnv {
  const suite = suiteProcessEnv();
  const home = fs.mkdtempSync(path.join(work, "home-"));
  return {
    ...withoutNpmScriptEnv(process.env),
    ...suite,
    PATH: [binDir, path.join(pulumiRoot(), "bin"), suite.PATH].join(path.delimiter),
    PULUMI_HOME: home,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PYTHONDONTWRITEBYTECODE: "1",
    CLOUDPLATFORM_SIMULATOR: path.join(binDir, "cloudplatform-simulator"),
  };
}

/** Runs `file args` in `cwd`; resolves with its output and exit code (never rejects). */
function run(file: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) =>
    execFile(file, args, { cwd, env: runnerEnv(), maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    ),
  );
}

/** A copy of examples/<name> in the work directory (the runners write caches and stacks there). */
function copyExample(name: string): string {
  const dir = path.join(work, name);
  fs.cpSync(path.join(REPO_ROOT, "examples", name), dir, { recursive: true });
  return dir;
}

/**
 * The TypeScript example with the packed package installed, and the same versions of its test
 * tools as this repository (exact, so npm takes them from its cache).
 */
function installTypescriptExample(tarball: string): string {
  const dir = copyExample("testing-typescript");
  const repo = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  const manifestPath = path.join(dir, "package.json");
  const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8")) as Record<string, Record<string, string>>;
  manifest["dependencies"] = { ...manifest["dependencies"], "pulumi-cloudplatform": `file:${tarball}`, "@pulumi/pulumi": repo.devDependencies["@pulumi/pulumi"] as string };
  manifest["devDependencies"] = Object.fromEntries(Object.keys(manifest["devDependencies"] ?? {}).map((name) => [name, repo.devDependencies[name] ?? ""]));
  fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, env: withoutNpmScriptEnv(process.env), stdio: ["ignore", "pipe", "pipe"] });
  return dir;
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-testing-examples-"));
  const typescript = installTypescriptExample(packPackage(work));
  binDir = path.join(work, "bin");
  fs.mkdirSync(binDir);
  for (const bin of ["pulumi-resource-cloudplatform", "cloudplatform-simulator"]) {
    fs.symlinkSync(path.join(typescript, "node_modules", ".bin", bin), path.join(binDir, bin));
  }
});
afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("examples/testing-typescript: jest runs its unit tests under mocks and its integration test, all passing", async () => {
  const dir = path.join(work, "testing-typescript");
  const report = path.join(work, "jest.json");
  const result = await run(path.join(dir, "node_modules", ".bin", "jest"), ["--json", `--outputFile=${report}`], dir);
  expect(result.code === 0 ? "" : result.output).toBe("");
  const { testResults } = JSON.parse(fs.readFileSync(report, "utf8")) as { testResults: { assertionResults: { title: string; status: string }[] }[] };
  const outcomes = testResults.flatMap((file) => file.assertionResults.map((a) => `${a.status}: ${a.title}`)).sort();
  expect(outcomes).toEqual(
    [
      "passed: the lookups ask for the default project and a Kubernetes region",
      "passed: the cluster upgrade and the threshold get what the lookups and the config say",
      "passed: both resources pass the checks pulumi preview runs",
      "passed: a requests threshold with a byte limit is caught by the provider's check",
      "passed: a lookup the mocks refuse fails with their message",
      "passed: a second account's provider: newResource gets it and its resources under the plugin's tokens, call its reference",
      "passed: up, refresh and destroy against the simulator, through a 503 on the threshold's first create",
    ].sort(),
  );
});

test("examples/testing-python: pytest runs its unit tests under mocks and its integration tests, all passing", async () => {
  const venv = execFileSync("bash", [path.join(REPO_ROOT, "scripts/python-env.sh"), PYTEST], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  const dir = copyExample("testing-python");
  const result = await run(path.join(venv, "bin", "python"), ["-m", "pytest", "-p", "no:cacheprovider", "-rA", "-q"], dir);
  expect(result.code === 0 ? "" : result.output).toBe("");
  const passed = [...result.output.matchAll(/^PASSED (\S+)$/gm)].map((m) => m[1]).sort();
  expect(passed).toEqual(
    [
      "test_program.py::test_lookups_ask_for_the_default_project_and_a_kubernetes_region",
      "test_program.py::test_resources_get_what_the_lookups_and_the_config_say",
      "test_integration.py::test_a_bad_input_fails_at_preview_before_any_write",
      "test_integration.py::test_up_refresh_destroy_through_a_503_on_the_thresholds_first_create",
    ].sort(),
  );
  expect(result.output).toMatch(/\b4 passed\b/);
});

test("examples/testing-go: go test runs its unit tests under mocks and its integration tests, all passing", async () => {
  const binary = execFileSync("bash", [path.join(REPO_ROOT, "scripts/go-program.sh"), "--test", path.join(REPO_ROOT, "examples/testing-go")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  const result = await run(binary, ["-test.v", "-test.count=1"], copyExample("testing-go"));
  expect(result.code === 0 ? "" : result.output).toBe("");
  const outcomes = [...result.output.matchAll(/^--- (\w+): (\w+)/gm)].map((m) => `${m[1]}: ${m[2]}`).sort();
  expect(outcomes).toEqual(
    [
      "PASS: TestLookupsAskForTheDefaultProjectAndAKubernetesRegion",
      "PASS: TestResourcesGetWhatTheLookupsAndTheConfigSay",
      "PASS: TestABadInputFailsAtPreviewBeforeAnyWrite",
      "PASS: TestUpRefreshDestroyThroughA503OnTheThresholdsFirstCreate",
    ].sort(),
  );
});
