/**
 * OpenAPI 3.1 from the tree: `toOpenApi(node, opts?)` and
 * `toOpenApiFromRoute(route, opts?)` describe every route the routers serve,
 * from the same `HttpRoute`, so the document and the server cannot disagree.
 *
 * @example
 * ```ts
 * import { api, op, toOpenApi } from "@ramify/api";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const doc = await toOpenApi(api({ ping: op(() => "pong", http.get) }), {
 *   title: "Ping",
 *   version: "1.0.0",
 * });
 * console.log(Object.keys(doc.paths)); // ["/ping"]
 * ```
 *
 * @module
 */

import type { Node } from "../tree/node.ts";
import { type JsonSchema, toJsonSchema } from "../tree/schema.ts";
import { httpProjection } from "./projection.ts";
import { type HttpOperation, type HttpRoute, listOperations } from "./route.ts";

/**
 * Options of {@linkcode toOpenApi} and {@linkcode toOpenApiFromRoute}.
 *
 * @example
 * ```ts
 * import type { OpenApiOptions } from "@ramify/api/http";
 *
 * const opts: OpenApiOptions = {
 *   title: "Bookstore",
 *   version: "1.2.0",
 *   servers: [{ url: "https://api.example.com" }],
 * };
 * ```
 */
export interface OpenApiOptions {
  /** `info.title`. Default `"API"`. */
  readonly title?: string;
  /** `info.version`, the version of the described API. Default `"0.0.0"`. */
  readonly version?: string;
  /** `info.description`. */
  readonly description?: string;
  /** `servers`. */
  readonly servers?: readonly { readonly url: string; readonly description?: string }[];
}

/**
 * An OpenAPI 3.1 document (the parts this library writes are typed; the rest
 * stays open).
 *
 * @example
 * ```ts
 * import type { OpenApiDocument } from "@ramify/api/http";
 *
 * const doc: OpenApiDocument = {
 *   openapi: "3.1.0",
 *   info: { title: "API", version: "1.0.0" },
 *   paths: {},
 *   components: { schemas: {} },
 * };
 * ```
 */
export interface OpenApiDocument {
  /** The OpenAPI version, `3.1.0`. */
  readonly openapi: "3.1.0";
  /** Title, version and description. */
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly description?: string;
  };
  /** Where the API is served. */
  readonly servers?: readonly { readonly url: string; readonly description?: string }[];
  /** Path templates to lowercase verbs to operations. */
  readonly paths: Readonly<Record<string, Readonly<Record<string, OpenApiOperation>>>>;
  /** Shared schemas. */
  readonly components: { readonly schemas: Readonly<Record<string, JsonSchema>> };
}

/**
 * One OpenAPI operation object.
 *
 * @example
 * ```ts
 * import type { OpenApiOperation } from "@ramify/api/http";
 *
 * const operation: OpenApiOperation = { operationId: "ping", responses: {} };
 * ```
 */
export interface OpenApiOperation {
  /** Unique across the document. */
  readonly operationId: string;
  /** One line. */
  readonly summary?: string;
  /** Longer text. */
  readonly description?: string;
  /** Groups. */
  readonly tags?: readonly string[];
  /** Marked deprecated. */
  readonly deprecated?: boolean;
  /** Path and query parameters. */
  readonly parameters?: readonly Readonly<Record<string, unknown>>[];
  /** The JSON body. */
  readonly requestBody?: Readonly<Record<string, unknown>>;
  /** By status. */
  readonly responses: Readonly<Record<string, unknown>>;
}

/**
 * The OpenAPI 3.1 document of a tree.
 *
 * @example
 * ```ts
 * import { api, op, toOpenApi } from "@ramify/api";
 *
 * const doc = await toOpenApi(api({ add: op(() => 1) }), { version: "2.0.0" });
 * console.log(doc.info.version); // "2.0.0"
 * ```
 */
export function toOpenApi(node: Node, opts?: OpenApiOptions): Promise<OpenApiDocument> {
  return toOpenApiFromRoute(httpProjection(node), opts);
}

const PROBLEM_REF = { $ref: "#/components/schemas/Problem" } as const;
const VALIDATION_REF = { $ref: "#/components/schemas/ValidationProblem" } as const;
const QUERY_VERBS: ReadonlySet<string> = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);

/**
 * The OpenAPI 3.1 document of a route tree.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { httpProjection } from "@ramify/api/http/dx";
 * import { toOpenApiFromRoute } from "@ramify/api/http";
 *
 * const doc = await toOpenApiFromRoute(httpProjection(api({ add: op(() => 1) })));
 * console.log(doc.paths["/add"].post.operationId); // "add"
 * ```
 *
 * @throws {Error} when two operations claim one `operationId`.
 */
export function toOpenApiFromRoute(
  route: HttpRoute,
  opts: OpenApiOptions = {},
): Promise<OpenApiDocument> {
  try {
    return Promise.resolve(buildDocument(route, opts));
  } catch (error) {
    return Promise.reject(error);
  }
}

function buildDocument(route: HttpRoute, opts: OpenApiOptions): OpenApiDocument {
  const operations = listOperations(route);
  const ids = operationIds(operations);
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  operations.forEach((operation, index) => {
    const item = paths[operation.path] ??= {};
    item[operation.method.toLowerCase()] = describeOperation(operation, ids[index]);
  });
  return {
    openapi: "3.1.0",
    info: {
      title: opts.title ?? "API",
      version: opts.version ?? "0.0.0",
      ...(opts.description === undefined ? {} : { description: opts.description }),
    },
    ...(opts.servers === undefined ? {} : { servers: opts.servers }),
    paths,
    components: { schemas: problemSchemas() },
  };
}

/** Stable, unique ids: the tree path in camelCase, disambiguated in document order. */
function operationIds(operations: readonly HttpOperation[]): string[] {
  const taken = new Set<string>();
  const explicit = new Set<string>();
  for (const operation of operations) {
    const id = operation.node.meta?.openapi?.operationId;
    if (id === undefined) continue;
    if (explicit.has(id)) {
      throw new Error(`toOpenApi: operationId "${id}" is given to more than one operation`);
    }
    explicit.add(id);
  }
  return operations.map((operation) => {
    const override = operation.node.meta?.openapi?.operationId;
    if (override !== undefined) return override;
    const base = camelId(operation);
    let id = base;
    if (taken.has(id) || explicit.has(id)) {
      id = `${base}${capitalize(operation.method.toLowerCase())}`;
    }
    for (let n = 2; taken.has(id) || explicit.has(id); n++) id = `${base}${n}`;
    taken.add(id);
    return id;
  });
}

function camelId(operation: HttpOperation): string {
  const words = operation.steps.filter((s) => s.kind === "child").map((s) => s.name);
  const parts = (words.length === 0 ? ["root"] : words).flatMap((w) =>
    w.split(/[^A-Za-z0-9]+/).filter(Boolean)
  );
  const id = parts.map((p, i) => i === 0 ? p.charAt(0).toLowerCase() + p.slice(1) : capitalize(p))
    .join("");
  return /^[A-Za-z_]/.test(id) ? id : `op${capitalize(id)}`;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function describeOperation(operation: HttpOperation, operationId: string): OpenApiOperation {
  const meta = operation.node.meta ?? {};
  const overrides = meta.openapi ?? {};
  const input = schemaOf(operation, "input");
  const properties = (input?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((input?.required ?? []) as string[]);
  const parameters: Record<string, unknown>[] = operation.params.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: properties[name] ?? { type: "string" },
  }));
  const rest = Object.keys(properties).filter((name) => !operation.params.includes(name));
  let requestBody: Record<string, unknown> | undefined;
  if (QUERY_VERBS.has(operation.method)) {
    for (const name of rest) {
      const schema = properties[name];
      parameters.push({
        name,
        in: "query",
        required: required.has(name),
        ...(typeof schema.description === "string" ? { description: schema.description } : {}),
        schema,
        ...(schema.type === "array" ? { style: "form", explode: true } : {}),
      });
    }
  } else if (input === undefined || rest.length > 0) {
    const bodySchema = input === undefined
      ? { type: "object" }
      : withoutParams(input, operation.params);
    requestBody = {
      required: [...required].some((name) => !operation.params.includes(name)),
      content: { "application/json": { schema: bodySchema } },
    };
  }
  const output = schemaOf(operation, "output");
  const success = operation.response === "event-stream"
    ? {
      description: "A stream of events",
      content: { "text/event-stream": { schema: output ?? {} } },
    }
    : { description: "Success", content: { "application/json": { schema: output ?? {} } } };
  const responses: Record<string, unknown> = {
    "200": success,
    "400": problemResponse("The request is malformed"),
    ...(input === undefined ? {} : {
      "422": {
        description: "The input does not match the schema",
        content: { "application/problem+json": { schema: VALIDATION_REF } },
      },
    }),
    "500": problemResponse("The server failed"),
  };
  const group = operation.path.split("/")[1];
  const tags = overrides.tags ?? (group && !group.startsWith("{") ? [group] : undefined);
  const summary = overrides.summary ?? firstLine(meta.description);
  const description = overrides.description ?? meta.description;
  return {
    operationId,
    ...(summary === undefined ? {} : { summary }),
    ...(description === undefined || description === summary ? {} : { description }),
    ...(tags === undefined ? {} : { tags }),
    ...(overrides.deprecated === undefined ? {} : { deprecated: overrides.deprecated }),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(requestBody === undefined ? {} : { requestBody }),
    responses,
  };
}

function problemResponse(description: string) {
  return { description, content: { "application/problem+json": { schema: PROBLEM_REF } } };
}

function firstLine(text: string | undefined): string | undefined {
  return text?.split("\n")[0];
}

function schemaOf(operation: HttpOperation, side: "input" | "output"): JsonSchema | undefined {
  const schema = operation.node.meta?.[side];
  if (schema === undefined) return undefined;
  const converted = toJsonSchema(schema, side);
  if (converted === undefined) return undefined;
  const { $schema: _dialect, ...rest } = converted;
  return rest;
}

function withoutParams(schema: JsonSchema, params: readonly string[]): JsonSchema {
  if (params.length === 0) return schema;
  const properties = { ...(schema.properties as Record<string, unknown>) };
  for (const name of params) delete properties[name];
  const required = ((schema.required ?? []) as string[]).filter((name) => !params.includes(name));
  const { required: _all, ...rest } = schema;
  return { ...rest, properties, ...(required.length === 0 ? {} : { required }) };
}

function problemSchemas(): Record<string, JsonSchema> {
  return {
    Problem: {
      type: "object",
      description: "RFC 9457 problem details",
      properties: {
        type: { type: "string" },
        title: { type: "string" },
        status: { type: "integer" },
        detail: { type: "string" },
      },
      required: ["type", "title", "status"],
    },
    ValidationProblem: {
      allOf: [
        PROBLEM_REF,
        {
          type: "object",
          properties: {
            issues: {
              type: "array",
              items: {
                type: "object",
                properties: {
                  message: { type: "string" },
                  path: { type: "array", items: { type: ["string", "integer"] } },
                },
                required: ["message", "path"],
              },
            },
          },
          required: ["issues"],
        },
      ],
    },
  };
}
