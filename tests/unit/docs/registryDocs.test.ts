/**
 * The Pulumi Registry pages (docs/_index.md, docs/installation-configuration.md): the front
 * matter the Registry reads, an example in every language the chooser offers that uses only
 * what exists (the TypeScript one compiles against the built package, the YAML one passes the
 * schema check, the Python and Go ones name only what the generated SDKs define), every
 * resource and function of the schema listed, and the configuration the provider really reads.
 * Needs `dist/` (make test-unit builds first).
 */
import * as fs from "fs";
import * as path from "path";
import {
  ALLOW_INSECURE_HTTP_CONFIG,
  ALLOW_INSECURE_HTTP_ENV,
  API_KEY_CONFIG,
  API_KEY_ENV,
  BASE_URL_CONFIG,
  BASE_URL_ENV,
  MAX_CONCURRENT_CONFIG,
  MAX_CONCURRENT_ENV,
} from "../../../provider/settings";
import { compileSnippets, typescriptBlocks } from "./snippets";
import { checkYamlProgram, type PackageSchema } from "./yamlProgram";
import { CPU_BOUND_MS } from "../cpuBound";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { load: parseYaml } = require("js-yaml") as { load(text: string): unknown };

const REPO_ROOT = path.resolve(__dirname, "../../..");
const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
const schema = JSON.parse(read("provider/plugin/schema.json")) as PackageSchema;
const PAGES = ["docs/_index.md", "docs/installation-configuration.md"];
const index = read("docs/_index.md");
const installation = read("docs/installation-configuration.md");

/** The fenced blocks of `language` in a markdown text. */
function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp("^```" + language + "\\n([\\s\\S]*?)^```", "gm"))].map((m) => m[1] ?? "");
}

/** The text of every file under `dir` whose name ends with `extension`, joined. */
function sourcesUnder(dir: string, extension: string): string {
  const walk = (d: string): string[] =>
    fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(d, e.name);
      if (e.isDirectory()) return walk(full);
      return e.name.endsWith(extension) ? [fs.readFileSync(full, "utf8")] : [];
    });
  return walk(path.join(REPO_ROOT, dir)).join("\n");
}

describe("Registry pages", () => {
  it.each(PAGES)("%s has the front matter the Registry reads (title, meta_desc, layout: package)", (page) => {
    const front = /^---\n([\s\S]*?)\n---\n/.exec(read(page))?.[1];
    expect(front).toBeDefined();
    const fields = parseYaml(front ?? "") as Record<string, unknown>;
    expect(fields).toEqual({ title: expect.stringMatching(/^Cloud Platform/), meta_desc: expect.any(String), layout: "package" });
    expect((fields["meta_desc"] as string).length).toBeLessThanOrEqual(200);
  });

  it("offers an example in each language of its chooser", () => {
    const chooser = /\{\{< chooser language "([^"]+)" >\}\}/.exec(index)?.[1]?.split(",") ?? [];
    expect(chooser).toEqual(["typescript", "python", "go", "yaml"]);
    for (const language of chooser) {
      const section = index.split(`{{% choosable language ${language} %}}`)[1]?.split("{{% /choosable %}}")[0] ?? "";
      expect({ language, blocks: blocks(section, language).length }).toEqual({ language, blocks: 1 });
    }
  });

  it("has a TypeScript example that compiles against the package", () => {
    const ts = typescriptBlocks(index);
    expect(ts).toHaveLength(1);
    expect(compileSnippets(ts, path.join(REPO_ROOT, "tests/.docs-snippets"))).toEqual([]);
  }, CPU_BOUND_MS);

  it("has a YAML example that passes the schema check", () => {
    const [yaml] = blocks(index, "yaml");
    expect(checkYamlProgram(parseYaml(yaml ?? ""), schema)).toEqual([]);
  });

  it("has Python and Go examples that use only names the generated SDKs define", () => {
    const python = blocks(index, "python").join("\n");
    const pythonSdk = sourcesUnder("sdk/python/pulumi_cloudplatform", ".py");
    const pythonNames = [...new Set([...python.matchAll(/cloudplatform\.(\w+)/g)].map((m) => m[1] ?? ""))];
    expect(pythonNames.length).toBeGreaterThanOrEqual(4);
    expect(pythonNames.filter((n) => !new RegExp(`^(def|class) ${n}\\b`, "m").test(pythonSdk))).toEqual([]);

    const go = blocks(index, "go").join("\n");
    const goSdk = sourcesUnder("sdk/go/cloudplatform", ".go");
    const goNames = [...new Set([...go.matchAll(/cloudplatform\.(\w+)/g)].map((m) => m[1] ?? ""))];
    expect(goNames.length).toBeGreaterThanOrEqual(6);
    expect(goNames.filter((n) => !new RegExp(`^(func|type) ${n}\\b`, "m").test(goSdk))).toEqual([]);
  });

  it("lists every resource and function of the schema", () => {
    const listed = (token: string) => index.includes(`\`${token}\``) || index.includes(`\`${token.split(":").pop() ?? ""}\``);
    expect(Object.keys(schema.resources).filter((t) => !listed(t))).toEqual([]);
    expect(Object.keys(schema.functions).filter((t) => !listed(t))).toEqual([]);
  });

  it("configures what the provider reads: the schema's config keys and the environment fallbacks", () => {
    const keys = Object.keys(schema.config?.variables ?? {}).map((k) => `${schema.name}:${k}`);
    expect(keys.sort()).toEqual([ALLOW_INSECURE_HTTP_CONFIG, API_KEY_CONFIG, BASE_URL_CONFIG, MAX_CONCURRENT_CONFIG].sort());
    for (const name of [...keys, API_KEY_ENV, BASE_URL_ENV, ALLOW_INSECURE_HTTP_ENV, MAX_CONCURRENT_ENV]) expect(installation).toContain(`\`${name}\``);
  });
});
