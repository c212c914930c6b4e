// @ts-check
/**
 * Generates `provider/plugin/schema.json`, which the plugin serves and the Python and Go SDKs are
 * generated from, out of the TypeScript SDK (resource classes and args interfaces in
 * `sdk/nodejs/<type>.ts`, lookups in `sdk/nodejs/lookups/*.ts`, every description from their
 * TSDoc) and the resources' definitions, so neither can drift from the schema.
 * `tests/unit/plugin/schema.test.ts` fails when the committed file is stale.
 *
 * Usage: `node tools/schema/generate.js` (writes the file) or `--check` (exits 1 when stale);
 * `--go-python <file>` writes the schema the Go and Python SDKs are generated from (tools/gen-sdks.sh):
 * the same, but the definitions' `wideIntegerInputs` stay `integer` there, the `int` 0.1.0 shipped.
 */
const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const ROOT = path.resolve(__dirname, "../..");
const OUT = path.join(ROOT, "provider/plugin/schema.json");
const PKG = "cloudplatform";
const PREFIX = `${PKG}:index:`;

/**
 * Numbers of the lookups that are integers, by name: ids, counts, page sizes (the TypeScript types
 * say only `number`; generated Go/Python SDKs should take `int` for ids). A resource names its own
 * in its definition's `integerInputs`.
 */
const INTEGER_NAME = /(^id$|Id$|^ids$|Ids$|Count$|^page|^limit$|^offset$|^maxResults$|^amount$|Size$|SizeV6$|^period$|^acknowledgedBy$)/;

/** Where each resource is defined once: its type name and the names the schema marks. */
const DEFINITIONS = { file: "provider/adapters/resourceDefinitions.ts", name: "RESOURCE_DEFINITIONS" };

/** The text of a symbol's TSDoc (first paragraph block, tags left out). */
function docOf(checker, symbol) {
  if (!symbol) return "";
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
}

/**
 * @param {ts.Program} program
 */
function makeGenerator(program) {
  const checker = program.getTypeChecker();
  /** @type {Record<string, any>} */
  const types = {};
  /** @type {string[]} */
  const missing = [];

  const describe = (what, text) => {
    if (!text) missing.push(what);
    return text;
  };

  /** The type without null/undefined, and whether it could be absent. */
  function strip(type) {
    if (!type.isUnion()) return { type, optional: false };
    const kept = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
    const optional = kept.length !== type.types.length;
    if (kept.length === 1) return { type: kept[0], optional };
    // Boolean is `true | false` to the checker.
    if (kept.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) return { type: checker.getBooleanType(), optional };
    return { type: checker.getUnionType(kept), optional };
  }

  /** Schema of a property type; `name` names anonymous objects and, through `isInteger`, picks integer for numbers. */
  function schemaOf(rawType, name, where, isInteger = (n) => INTEGER_NAME.test(n)) {
    const { type } = strip(rawType);
    const f = type.flags;
    if (f & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral)) return { type: "string" };
    if (type.isUnion() && type.types.every((t) => t.flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral))) return { type: "string" };
    if (f & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)) return { type: isInteger(name) ? "integer" : "number" };
    if (f & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { $ref: "pulumi.json#/Any" };
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      const [item] = checker.getTypeArguments(/** @type {ts.TypeReference} */ (type));
      return { type: "array", items: schemaOf(item, name.replace(/s$/, ""), `${where}[]`, isInteger) };
    }
    if (f & ts.TypeFlags.Object) {
      const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
      if (index && checker.getPropertiesOfType(type).length === 0) {
        return { type: "object", additionalProperties: schemaOf(index.type, name, `${where}{}`, isInteger) };
      }
      let typeName = type.aliasSymbol?.name ?? type.getSymbol()?.name ?? "";
      if (!typeName || typeName.startsWith("__")) typeName = `${where.split(".")[0]}${name[0].toUpperCase()}${name.slice(1)}`;
      const token = `${PREFIX}${typeName}`;
      if (!types[token]) {
        types[token] = { type: "object" }; // placeholder against recursion
        const symbol = type.aliasSymbol ?? type.getSymbol();
        const { properties, required } = objectProperties(type, typeName);
        types[token] = { description: describe(`type ${typeName}`, docOf(checker, symbol)), type: "object", properties, ...(required.length ? { required } : {}) };
      }
      return { $ref: `#/types/${token}` };
    }
    // A union of different kinds (`string | number`): the schema's Any, as generated SDKs do.
    if (type.isUnion()) return { $ref: "pulumi.json#/Any" };
    throw new Error(`${where}: cannot map TypeScript type ${checker.typeToString(type)} to the schema`);
  }

  /** Properties (with descriptions) and required names of an object type. */
  function objectProperties(type, owner) {
    const properties = {};
    const required = [];
    for (const prop of checker.getPropertiesOfType(type)) {
      const decl = prop.valueDeclaration ?? prop.declarations?.[0];
      const propType = checker.getTypeOfSymbolAtLocation(prop, /** @type {ts.Node} */ (decl));
      const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0 || strip(propType).optional;
      properties[prop.name] = { ...schemaOf(propType, prop.name, `${owner}.${prop.name}`), description: describe(`${owner}.${prop.name}`, docOf(checker, prop)) };
      if (!optional) required.push(prop.name);
    }
    return { properties, required };
  }

  /** The type argument of `pulumi.Input<T>` / `pulumi.Output<T>`, or the node itself. */
  function unwrapNode(node) {
    if (node && ts.isTypeReferenceNode(node) && /(^|\.)(Input|Output)$/.test(node.typeName.getText()) && node.typeArguments?.length === 1) {
      return node.typeArguments[0];
    }
    return node;
  }

  /** Members of a class or interface declared with Input/Output-wrapped types. */
  function wrappedMembers(decl, owner, isInteger) {
    const properties = {};
    const required = [];
    for (const member of decl.members) {
      if (!ts.isPropertySignature(member) && !ts.isPropertyDeclaration(member)) continue;
      const name = member.name.getText();
      if (!member.type) continue;
      const symbol = checker.getSymbolAtLocation(member.name);
      const inner = unwrapNode(member.type);
      const type = checker.getTypeFromTypeNode(inner);
      const optional = !!member.questionToken || strip(type).optional;
      properties[name] = { ...schemaOf(type, name, `${owner}.${name}`, isInteger), description: describe(`${owner}.${name}`, docOf(checker, symbol)) };
      if (!optional) required.push(name);
    }
    return { properties, required };
  }

  function findDecl(file, name, kind) {
    const source = program.getSourceFile(path.join(ROOT, file));
    if (!source) throw new Error(`${file} not found`);
    const nameOf = (s) => (ts.isVariableStatement(s) ? s.declarationList.declarations[0]?.name.getText() : s.name?.getText());
    const found = source.statements.find((s) => kind(s) && nameOf(s) === name);
    if (!found) throw new Error(`${file}: no ${name}`);
    return found;
  }

  /** The names of a definition's list, written `as const` so its type holds them in order. */
  function namesOf(symbol, where) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, /** @type {ts.Node} */ (symbol.valueDeclaration));
    const items = checker.isTupleType(type) ? checker.getTypeArguments(/** @type {ts.TypeReference} */ (type)) : undefined;
    if (!items?.every((t) => t.isStringLiteral())) throw new Error(`${where}: write it as a list of names, \`as const\``);
    return items.map((t) => /** @type {ts.StringLiteralType} */ (t).value);
  }

  /** The resources' definitions, in order: type name, replaceOnChanges, integerInputs, wideIntegerInputs. */
  function definitions() {
    const decl = findDecl(DEFINITIONS.file, DEFINITIONS.name, ts.isVariableStatement).declarationList.declarations[0];
    const type = checker.getTypeAtLocation(decl.name);
    return type.getProperties().map((def) => {
      const where = `${DEFINITIONS.file}: ${def.name}`;
      const field = (name) => {
        const symbol = checker.getTypeOfSymbolAtLocation(def, decl).getProperty(name);
        if (!symbol) throw new Error(`${where} has no ${name}`);
        return namesOf(symbol, `${where}.${name}`);
      };
      const [replaceOnChanges, integerInputs, wideIntegerInputs] = ["replaceOnChanges", "integerInputs", "wideIntegerInputs"].map(field);
      return { name: def.name, replaceOnChanges, integerInputs, wideIntegerInputs };
    });
  }

  /** A resource from `sdk/nodejs/<name>.ts` (class, `<Name>Args`); wide integers `number` unless `wideAsInteger`. */
  function resource(def, wideAsInteger) {
    const file = `sdk/nodejs/${def.name[0].toLowerCase()}${def.name.slice(1)}.ts`;
    const args = `${def.name}Args`;
    const isInteger = (name) => def.integerInputs.includes(name);
    const cls = findDecl(file, def.name, ts.isClassDeclaration);
    const outputs = wrappedMembers(cls, def.name, isInteger);
    const inputs = wrappedMembers(findDecl(file, args, ts.isInterfaceDeclaration), args, isInteger);
    for (const name of def.integerInputs) {
      if (inputs.properties[name]?.type !== "integer") throw new Error(`${def.name}: integerInputs names ${name}, which is no number input`);
    }
    for (const name of def.wideIntegerInputs) {
      if (!def.integerInputs.includes(name)) throw new Error(`${def.name}: wideIntegerInputs names ${name}, which integerInputs does not`);
      if (wideAsInteger) continue;
      inputs.properties[name] = { ...inputs.properties[name], type: "number" };
      outputs.properties[name] = { ...outputs.properties[name], type: "number" };
    }
    // Every input is an output too, so state views keep it.
    for (const name of Object.keys(inputs.properties)) {
      if (!outputs.properties[name]) outputs.properties[name] = inputs.properties[name];
    }
    for (const name of def.replaceOnChanges) {
      if (!inputs.properties[name]) throw new Error(`${def.name}: replaceOnChanges names ${name}, which is no input`);
      inputs.properties[name] = { ...inputs.properties[name], replaceOnChanges: true };
      outputs.properties[name] = { ...outputs.properties[name], replaceOnChanges: true };
    }
    return {
      description: describe(def.name, docOf(checker, checker.getSymbolAtLocation(/** @type {ts.ClassDeclaration} */ (cls).name))),
      properties: outputs.properties,
      required: outputs.required,
      inputProperties: inputs.properties,
      requiredInputs: inputs.required,
    };
  }

  function functions() {
    const out = {};
    const dir = path.join(ROOT, "sdk/nodejs/lookups");
    for (const file of fs.readdirSync(dir).sort()) {
      const source = program.getSourceFile(path.join(dir, file));
      if (!source) continue;
      for (const stmt of source.statements) {
        if (!ts.isFunctionDeclaration(stmt) || !stmt.name || !stmt.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
        const name = stmt.name.getText();
        if (!/^get[A-Z]/.test(name) || name.endsWith("Output")) continue;
        const [argsParam] = stmt.parameters;
        const signature = checker.getSignatureFromDeclaration(stmt);
        if (!argsParam || !signature) throw new Error(`${file}: ${name} has no args parameter`);
        const argsType = checker.getTypeAtLocation(argsParam);
        const resultType = checker.getTypeArguments(/** @type {ts.TypeReference} */ (signature.getReturnType()))[0];
        const resultName = `${name[0].toUpperCase()}${name.slice(1)}Result`;
        const args = objectProperties(argsType, `${name[0].toUpperCase()}${name.slice(1)}Args`);
        const result = objectProperties(/** @type {ts.Type} */ (resultType), resultName);
        out[`${PREFIX}${name}`] = {
          description: describe(name, docOf(checker, checker.getSymbolAtLocation(stmt.name))),
          // No arguments: `inputs: {}`, the form the CLI itself writes back (`package get-schema`).
          inputs: Object.keys(args.properties).length ? { properties: args.properties, ...(args.required.length ? { required: args.required } : {}) } : {},
          outputs: { properties: result.properties, ...(result.required.length ? { required: result.required } : {}) },
        };
      }
    }
    return out;
  }

  return { types, missing, definitions, resource, functions };
}

/** The provider's configuration: the stack's `cloudplatform:*` config and an explicit provider's inputs. */
const CONFIG = {
  apiKey: { type: "string", secret: true, description: "API key of the cloud platform. Falls back to the CLOUDPLATFORM_API_KEY environment variable." },
  baseUrl: { type: "string", description: "Base URL of the cloud platform API. Falls back to the CLOUDPLATFORM_BASE_URL environment variable." },
  allowInsecureHttp: {
    type: "boolean",
    description:
      "Allow a plain http:// base URL to a host other than this machine (the API key then travels in cleartext). Off by default; http to localhost, 127.0.0.1 and ::1 is always allowed. Falls back to the CLOUDPLATFORM_ALLOW_INSECURE_HTTP environment variable.",
  },
  maxConcurrentRequests: {
    type: "integer",
    description:
      "Requests in flight to the API at most, from 1 to 256 (default 8), for everything this provider sends; a 429's Retry-After also holds the other requests to the same part of the API. Falls back to the CLOUDPLATFORM_MAX_CONCURRENT_REQUESTS environment variable.",
  },
};

/**
 * The schema object, built from the repository's sources; `wideAsInteger` gives the Go and Python
 * SDKs' view (wide integers `integer`, as 0.1.0 shipped them: `int` there is 64-bit already).
 */
function generateSchema({ wideAsInteger = false } = {}) {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, "tsconfig.json"), {}, /** @type {any} */ ({ ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n")); } }));
  if (!config) throw new Error("tsconfig.json could not be read");
  const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true } });
  const gen = makeGenerator(program);
  const resources = Object.fromEntries(gen.definitions().map((def) => [`${PREFIX}${def.name}`, gen.resource(def, wideAsInteger)]));
  const fns = gen.functions();
  if (gen.missing.length) throw new Error(`TSDoc missing for: ${gen.missing.join(", ")}`);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  // The URL is no part of the sources: PLUGIN_DOWNLOAD_URL when set ("" removes it), else what the
  // committed schema holds, which `make version` stamped.
  const downloadURL = process.env.PLUGIN_DOWNLOAD_URL ?? (fs.existsSync(OUT) ? JSON.parse(fs.readFileSync(OUT, "utf8")).pluginDownloadURL : undefined);
  return {
    name: PKG,
    displayName: "Cloud Platform",
    version: pkg.version,
    description: "Kubernetes cluster upgrades, object-storage notification thresholds and lookups for the cloud platform HTTP API.",
    keywords: ["pulumi", "cloudplatform", "category/cloud", "kind/native"],
    license: pkg.license,
    publisher: "pulumi-cloudplatform",
    // Where the engine downloads the plugin for a program that needs it: set for a release with
    // `make version PLUGIN_DOWNLOAD_URL=<url>` (tools/release/version.js, RELEASING.md), absent otherwise.
    ...(downloadURL ? { pluginDownloadURL: downloadURL } : {}),
    config: { variables: CONFIG },
    provider: { description: "The cloudplatform provider: how to reach the API.", inputProperties: CONFIG },
    resources,
    functions: fns,
    types: Object.fromEntries(Object.entries(gen.types).sort(([a], [b]) => a.localeCompare(b))),
    language: {
      // respectSchemaVersion: the generated Go and Python SDKs carry this version (package.json's),
      // so a program asks the engine for the plugin it was generated against.
      go: { importBasePath: "github.com/pulumi-cloudplatform/pulumi-cloudplatform/sdk/go/cloudplatform", generateResourceContainerTypes: false, respectSchemaVersion: true },
      python: { packageName: "pulumi_cloudplatform", pyproject: { enabled: true }, respectSchemaVersion: true },
      // Not this package's own name: `pulumi package add` installs the generated SDK next to it
      // in a TypeScript program. Scoped by the publisher, as Pulumi names SDKs `@<namespace>/<name>`.
      nodejs: { packageName: "@pulumi-cloudplatform/cloudplatform" },
      // The publisher's own namespace, as third-party Java SDKs have theirs (com.pulumiverse, ...):
      // Maven io.github.pulumi-cloudplatform:cloudplatform (sdk/java/pom.xml), Java packages
      // io.github.pulumicloudplatform.cloudplatform.*. Built with Maven, so no Gradle files.
      java: { basePackage: "io.github.pulumicloudplatform" },
    },
  };
}

/** The file text (stable: 2-space JSON with a final newline). */
function schemaText(options = {}) {
  return `${JSON.stringify(generateSchema(options), null, 2)}\n`;
}

module.exports = { generateSchema, schemaText, SCHEMA_PATH: OUT };

if (require.main === module) {
  const goPython = process.argv.indexOf("--go-python");
  if (goPython > 0) {
    const file = process.argv[goPython + 1];
    if (!file) throw new Error("--go-python needs the file to write");
    fs.writeFileSync(file, schemaText({ wideAsInteger: true }));
    process.exit(0);
  }
  const text = schemaText();
  if (process.argv.includes("--check")) {
    const current = fs.existsSync(OUT) ? fs.readFileSync(OUT, "utf8") : "";
    if (current !== text) {
      process.stderr.write(`${path.relative(ROOT, OUT)} is stale: run \`make schema\`\n`);
      process.exit(1);
    }
  } else {
    fs.writeFileSync(OUT, text);
    process.stdout.write(`wrote ${path.relative(ROOT, OUT)}\n`);
  }
}
