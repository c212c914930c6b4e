/**
 * The shape of `openapi-operations.json` (written by `tools/openapi-operations/extract.js` from the
 * platform's public OpenAPI files) and its loader. The tests read only this committed file: no
 * network, no copy of the OpenAPI files.
 */
import { readFileSync } from "fs";
import { join } from "path";

/** A schema reduced to what a request is checked against (`$ref`s resolved, texts left out). */
export interface SchemaFacts {
  readonly type?: string | readonly string[];
  readonly nullable?: boolean;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  /** A number in OpenAPI 3.1; `true` (with `minimum`) in 3.0. */
  readonly exclusiveMinimum?: number | boolean;
  readonly exclusiveMaximum?: number | boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly items?: SchemaFacts;
  readonly properties?: Readonly<Record<string, SchemaFacts>>;
  readonly required?: readonly string[];
  /** `false`: no property but those listed; a schema: what the others must be. */
  readonly additionalProperties?: false | SchemaFacts;
  /** One of these must hold (the `null` branch is folded into `nullable`). */
  readonly anyOf?: readonly SchemaFacts[];
}

/** A path or query parameter. */
export interface ParameterFacts {
  readonly required: boolean;
  readonly schema: SchemaFacts;
  /** `false`: an array goes as one comma-separated value instead of repeated keys. */
  readonly explode?: boolean;
  /** Set when `schema.enum` was read from the parameter's description (`one of [...]`), the schema itself having none. */
  readonly enumFrom?: "description";
}

/** One operation we call, as the public OpenAPI describes it. */
export interface OperationFacts {
  readonly method: string;
  /** The path template, e.g. `/cloud/v1/tasks/{task_id}`. */
  readonly path: string;
  readonly operationId?: string;
  /** The OpenAPI file and the commit of its repository the facts were read from. */
  readonly source: { readonly file: string; readonly commit: string };
  readonly pathParameters: Readonly<Record<string, ParameterFacts>>;
  readonly queryParameters: Readonly<Record<string, ParameterFacts>>;
  /** `null`: the operation takes no body. */
  readonly body: { readonly required: boolean; readonly contentType: string; readonly schema: SchemaFacts } | null;
}

/** The whole file. */
export interface OpenApiFacts {
  readonly about: string;
  /** The repository the files are in (each operation names its file and commit). */
  readonly repository: string;
  readonly operations: readonly OperationFacts[];
}

/** Where the committed facts are. */
export const FACTS_FILE = join(__dirname, "openapi-operations.json");

/** The committed facts. */
export function loadFacts(file: string = FACTS_FILE): OpenApiFacts {
  return JSON.parse(readFileSync(file, "utf8")) as OpenApiFacts;
}

/** `GET /cloud/v1/tasks/{task_id}`: how an operation is named in reports and coverage. */
export function operationKey(op: Pick<OperationFacts, "method" | "path">): string {
  return `${op.method} ${op.path}`;
}
