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
import { httpProjection, type HttpProjectionOptions } from "../../route/projection.ts";
import type { FetchHandler, RouterOptions } from "./router.ts";
import { type OpenApiOptions, toOpenApiFromRoute } from "../openapi/openapi.ts";
import { toRouter } from "./matchers/mod.ts";
import { type HttpOperation, type HttpRoute, listOperations } from "../../route/route.ts";
import { isVoidSchema } from "../../tree/schema.ts";
import { api, op } from "../../tree/construct.ts";
import { assertImplemented } from "../../tree/contract.ts";
import { http } from "../verbs.ts";
import { checkOptions, knownKeys } from "../../tree/options.ts";
import { protectedResourceAnswer } from "../../web/protected_resource.ts";
import { applyPolicies, POLICY_OPTIONS } from "../../web/edge.ts";
import { restEdge } from "../../web/respond.ts";

/**
 * Options of {@linkcode createFetch}: the router's, the projection's, and the
 * OpenAPI mount's.
 *
 * @example
 * ```ts
 * import { cors, type CreateFetchOptions } from "@ramify/api/http";
 *
 * const opts: CreateFetchOptions = { openapi: false, basePath: "/api", policies: [cors(true)] };
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

/** Every option {@linkcode createFetch} knows: any other key is refused when it is called. */
const FETCH_OPTIONS = /* @__PURE__ */ knownKeys<CreateFetchOptions>()([
  "basePath",
  "maxBodyBytes",
  "maxInputDepth",
  "maxParams",
  "onError",
  "policies",
  "heartbeatMs",
  "bodyTimeoutMs",
  "timeoutMs",
  "trustedOrigins",
  "context",
  "idempotency",
  "tasks",
  "taskOwner",
  "collapse",
  "openapi",
  "document",
  "router",
]);

const DOCUMENT_SEGMENT = "openapi.json";

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
 * @throws {TypeError} when a leaf is a contract without a handler (see `implement`),
 * or `opts` holds a key it does not know.
 * @throws {Error} when the tree itself routes `GET /openapi.json` while the
 * document is on, and for every route error of `httpProjection`.
 */
export function createFetch(tree: Node, opts: CreateFetchOptions = {}): FetchHandler {
  checkOptions("createFetch", opts, FETCH_OPTIONS, POLICY_OPTIONS);
  assertImplemented(tree, "createFetch");
  // The policies stand in front of the whole: the routes, the document and the metadata.
  const { policies, ...own } = opts;
  const handler = restHandler(tree, own);
  // A tree with an OAuth guard publishes the metadata its challenges point to (RFC 9728).
  const metadata = protectedResourceAnswer(tree);
  const served: FetchHandler = metadata === undefined ? handler : (request) => {
    const answer = metadata(request);
    return answer === undefined ? handler(request) : Promise.resolve(answer);
  };
  return applyPolicies(served, restEdge, policies);
}

function restHandler(tree: Node, opts: CreateFetchOptions): FetchHandler {
  const route = httpProjection(tree, opts);
  const compile = opts.router ?? toRouter;
  if (opts.openapi === false) return compile(route, opts);
  const mounted = route.children[DOCUMENT_SEGMENT];
  if (mounted?.methods.GET !== undefined) {
    throw new Error(
      "createFetch: the tree routes GET /openapi.json itself; pass openapi: false or rename it",
    );
  }
  // A schema the document cannot describe fails here, not as a 500 on first request.
  for (const operation of listOperations(route)) checkDescribable(operation);
  const base = opts.basePath === undefined || opts.basePath === "/"
    ? ""
    : opts.basePath.replace(/\/$/, "");
  let body: Promise<Uint8Array> | undefined;
  const document = op(async () => {
    try {
      // Built on the document's first request. Imported, not `import()`ed: a bundler
      // wraps every module a dynamic import reaches to evaluate it on demand, and
      // that weighed 1.4 KB in a bundle that never serves a document
      // (tests/size_budget_test.ts).
      const bytes = await (body ??= toOpenApiFromRoute(route, {
        ...opts.document,
        servers: opts.document?.servers ?? (base === "" ? undefined : [{ url: base }]),
      }).then((doc) => new TextEncoder().encode(JSON.stringify(doc))));
      return new Response(bytes.slice(), {
        headers: {
          "content-type": "application/json",
          "content-length": String(bytes.byteLength),
        },
      });
    } catch (error) {
      // Built again on the next request; this one is a reported 500.
      body = undefined;
      throw error;
    }
  }, http.get);
  // The document is one more GET route of the router (beside whatever else the
  // tree routes at that path): HEAD, OPTIONS, 405, CORS and the base path come
  // with it, and no request pays for a check of its own. The projection makes
  // its operation, as it makes every other.
  const operation = httpProjection(api({ [DOCUMENT_SEGMENT]: document }))
    .children[DOCUMENT_SEGMENT].methods.GET!;
  return compile({
    ...route,
    children: {
      ...route.children,
      [DOCUMENT_SEGMENT]: {
        children: mounted?.children ?? {},
        ...(mounted?.param === undefined ? {} : { param: mounted.param }),
        methods: { ...mounted?.methods, GET: operation },
      },
    },
  }, opts);
}

function checkDescribable(operation: HttpOperation): void {
  const { entry } = operation;
  // Read as the catalogue holds them, which the document reads too.
  const reads = [["input", () => entry.inputSchema], ["output", () => entry.outputSchema]] as const;
  for (const [side, read] of reads) {
    const schema = operation.node.meta?.[side];
    // A void output has no JSON Schema: the document says "no content" instead.
    if (schema === undefined || (side === "output" && isVoidSchema(schema))) continue;
    try {
      read();
    } catch (error) {
      throw new TypeError(
        `createFetch: the ${side} schema of ${operation.entry.label} (${operation.method} ${operation.path}) has no JSON Schema form, so the OpenAPI document cannot describe it; pass openapi: false to serve without one. ${
          error instanceof Error ? error.message : String(error)
        }`,
        { cause: error },
      );
    }
  }
}
