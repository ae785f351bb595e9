/**
 * `createFetch(tree, opts?)`: the whole HTTP surface of a tree as one fetch
 * handler, the default router plus the OpenAPI document at `/openapi.json`
 * (built on first request, then cached).
 *
 * @example
 * ```ts
 * import { api, createFetch, http, op } from "@ramify/api";
 *
 * const handler = createFetch(api({ ping: op(() => "pong", http.get) }));
 * const response = await handler(new Request("http://localhost/ping"));
 * console.log(await response.json()); // "pong"
 * ```
 *
 * @module
 */

import type { Node } from "../../tree/node.ts";
import { httpProjection, type HttpProjectionOptions } from "./projection.ts";
import type { FetchHandler, RouterOptions } from "./dispatch.ts";
import { type OpenApiOptions, toOpenApiFromRoute } from "../openapi/openapi.ts";
import { toRouter } from "./router/mod.ts";
import { type HttpOperation, type HttpRoute, listOperations } from "./route.ts";
import { toJsonSchema } from "../../tree/schema.ts";
import { splitUrl } from "./path.ts";
import { problem } from "./respond.ts";
import { corsPolicy, withCors } from "./cors.ts";

/**
 * Options of {@linkcode createFetch}: the router's, the projection's, and the
 * OpenAPI mount's.
 *
 * @example
 * ```ts
 * import type { CreateFetchOptions } from "@ramify/api/http";
 *
 * const opts: CreateFetchOptions = { openapi: false, basePath: "/api", cors: true };
 * ```
 */
export interface CreateFetchOptions extends RouterOptions, HttpProjectionOptions {
  /** Serve the OpenAPI document at `GET /openapi.json`. Default `true`. */
  readonly openapi?: boolean;
  /** Title, version and servers of the served document. */
  readonly document?: OpenApiOptions;
  /** The router to compile the route with. Default `toRouter`. */
  readonly router?: (route: HttpRoute, opts: RouterOptions) => FetchHandler;
}

const OPENAPI_PATH = "/openapi.json";
const DOCUMENT_ALLOW = "GET, HEAD, OPTIONS";

/**
 * The fetch handler of a tree: its routes, and its OpenAPI document unless
 * `openapi: false`. Use it with `Deno.serve`, `Bun.serve` or any fetch-based
 * server.
 *
 * @example
 * ```ts
 * import { api, createFetch, http, op } from "@ramify/api";
 *
 * const handler = createFetch(api({ ping: op(() => "pong", http.get) }), {
 *   document: { title: "Ping", version: "1.0.0" },
 * });
 * const doc = await (await handler(new Request("http://localhost/openapi.json"))).json();
 * console.log(doc.info.title); // "Ping"
 * ```
 *
 * @throws {Error} when the tree itself routes `GET /openapi.json` while the
 * document is on, and for every route error of `httpProjection`.
 */
export function createFetch(tree: Node, opts: CreateFetchOptions = {}): FetchHandler {
  const route = httpProjection(tree, opts);
  const router = (opts.router ?? toRouter)(route, opts);
  if (opts.openapi === false) return router;
  if (route.children["openapi.json"]?.methods.GET !== undefined) {
    throw new Error(
      "createFetch: the tree routes GET /openapi.json itself; pass openapi: false or rename it",
    );
  }
  // A schema the document cannot describe fails here, not as a 500 on first request.
  for (const operation of listOperations(route)) checkDescribable(operation);
  const base = opts.basePath === undefined || opts.basePath === "/"
    ? ""
    : opts.basePath.replace(/\/$/, "");
  const documentPath = base + OPENAPI_PATH;
  let body: Promise<Uint8Array> | undefined;
  const documentBody = () =>
    body ??= toOpenApiFromRoute(route, {
      ...opts.document,
      servers: opts.document?.servers ?? (base === "" ? undefined : [{ url: base }]),
    }).then((doc) => new TextEncoder().encode(JSON.stringify(doc)));
  const cors = opts.cors === undefined ? undefined : corsPolicy(opts.cors);
  // Other methods stay the tree's: it may route them at this path.
  const answersOptions = route.children["openapi.json"] === undefined;
  const serveDocument = async (request: Request, head: boolean): Promise<Response> => {
    try {
      const bytes = await documentBody();
      return new Response(head ? null : bytes.slice(), {
        headers: {
          "content-type": "application/json",
          "content-length": String(bytes.byteLength),
        },
      });
    } catch (error) {
      body = undefined;
      opts.onError?.(error, request);
      return problem(500);
    }
  };
  const answerDocument = async (request: Request): Promise<Response> => {
    const method = request.method;
    let response: Response;
    if (method === "GET" || method === "HEAD") {
      response = await serveDocument(request, method === "HEAD");
    } else if (method === "OPTIONS" && answersOptions) {
      if (cors !== undefined && request.headers.has("access-control-request-method")) {
        return cors.preflight(request, DOCUMENT_ALLOW);
      }
      response = new Response(null, { status: 204, headers: { allow: DOCUMENT_ALLOW } });
    } else {
      return router(request);
    }
    return cors === undefined ? response : withCors(response, cors, request.headers.get("origin"));
  };
  // Not `async`: any other path gets the router's own promise, and a URL that
  // does not hold the document's path anywhere is not split again.
  return (request) => {
    const url = request.url;
    return url.includes(documentPath) && splitUrl(url).path === documentPath
      ? answerDocument(request)
      : router(request);
  };
}

function checkDescribable(operation: HttpOperation): void {
  for (const side of ["input", "output"] as const) {
    const schema = operation.node.meta?.[side];
    if (schema === undefined) continue;
    try {
      toJsonSchema(schema, side);
    } catch (error) {
      const leaf = operation.steps.map((step) =>
        step.kind === "child" ? step.name : `{${step.name}}`
      ).join(".");
      throw new TypeError(
        `createFetch: the ${side} schema of ${leaf} (${operation.method} ${operation.path}) has no JSON Schema form, so the OpenAPI document cannot describe it; pass openapi: false to serve without one. ${
          error instanceof Error ? error.message : String(error)
        }`,
        { cause: error },
      );
    }
  }
}
