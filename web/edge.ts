/**
 * The one edge in front of every HTTP surface. A request policy (CORS, a rate
 * limit, one of your own) is a value: made once, given in a list to `serve()`,
 * `createFetch`, `createHttpGraphQLServer`, `createMcpHandler` or the GraphQL
 * WebSocket handlers, and composed there in the order listed, the first
 * outermost, as Hono's middleware is. REST, GraphQL and MCP sit behind it as
 * codecs: a policy that refuses a request says why (status, code, words), and
 * the surface it guards writes the refusal in its own format (problem+json, a
 * GraphQL error, a JSON-RPC error). A policy an app does not list is code its
 * bundle never reaches.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { cors, createFetch, rateLimit, tokenBucket } from "@ramify/api/http";
 * import { http } from "@ramify/api/http/verbs";
 *
 * const handler = createFetch(api({ ping: op(() => "pong", http.get) }), {
 *   policies: [
 *     cors({ origin: "https://app.example" }),
 *     rateLimit({ limiter: tokenBucket({ capacity: 10, refillPerSecond: 1 }) }),
 *   ],
 * });
 * const response = await handler(
 *   new Request("http://localhost/ping", { headers: { origin: "https://app.example" } }),
 * );
 * console.log(response.headers.get("access-control-allow-origin")); // "https://app.example"
 * ```
 *
 * @module
 */

/**
 * A request to its answer: what a surface is, and what a policy wraps.
 *
 * @example
 * ```ts
 * import type { EdgeHandler } from "@ramify/api/http";
 *
 * const teapot: EdgeHandler = () => Promise.resolve(new Response(null, { status: 418 }));
 * ```
 */
export type EdgeHandler = (request: Request) => Promise<Response>;

/**
 * Why a policy refused a request, for the surface to write in its format.
 *
 * @example
 * ```ts
 * import type { Refusal } from "@ramify/api/http";
 *
 * const refusal: Refusal = {
 *   status: 429,
 *   code: "TOO_MANY_REQUESTS",
 *   message: "Too many requests; try again later",
 *   headers: { "retry-after": "1" },
 * };
 * ```
 */
export interface Refusal {
  /** The HTTP status (4xx or 5xx). */
  readonly status: number;
  /** A code in GraphQL's manner (`TOO_MANY_REQUESTS`, `FORBIDDEN`, ...). */
  readonly code: string;
  /** Words for the caller. */
  readonly message: string;
  /** Headers the answer carries (`Retry-After`, ...). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The surface behind the edge, as a policy sees it: its name, and how a
 * refusal reads on its wire.
 *
 * @example
 * ```ts
 * import type { EdgeSurface } from "@ramify/api/http";
 *
 * const plain: EdgeSurface = {
 *   name: "http",
 *   refuse: ({ status, message, headers }) => new Response(message, { status, headers }),
 * };
 * ```
 */
export interface EdgeSurface {
  /** Which surface: REST (`"http"`), GraphQL over HTTP or WebSocket, or MCP. */
  readonly name: "http" | "graphql" | "mcp";
  /** The refusal as this surface answers it. */
  refuse(refusal: Refusal): Response;
}

/**
 * A request policy: a value applied once, when a server is made, around the
 * surface it guards. `apply` gets the next handler (the rest of the chain,
 * the surface last) and the surface, and gives the handler that runs first.
 *
 * @example
 * ```ts
 * import type { Policy } from "@ramify/api/http";
 *
 * // Refuses requests without an API version header, in each surface's format.
 * const versioned: Policy = {
 *   name: "versioned",
 *   apply: (next, surface) => (request) =>
 *     request.headers.has("x-api-version") ? next(request) : Promise.resolve(surface.refuse({
 *       status: 400,
 *       code: "BAD_REQUEST",
 *       message: "Send X-Api-Version",
 *     })),
 * };
 * ```
 */
export interface Policy {
  /** What it is (`cors`, `rateLimit`, ...): one policy of a name per server. */
  readonly name: string;
  /** Wraps `next`, once, for `surface`. */
  apply(next: EdgeHandler, surface: EdgeSurface): EdgeHandler;
}

/**
 * The options that became policies, and what each is now: a server refuses
 * them by name, saying so, when it is made.
 *
 * @example
 * ```ts
 * import { POLICY_OPTIONS } from "./edge.ts";
 *
 * console.log(POLICY_OPTIONS.cors); // 'a policy: policies: [cors(...)] (from "@ramify/api/http")'
 * ```
 */
export const POLICY_OPTIONS: Readonly<Record<"cors" | "rateLimit", string>> = {
  cors: 'a policy: policies: [cors(...)] (from "@ramify/api/http")',
  rateLimit: 'a policy: policies: [rateLimit(...)] (from "@ramify/api/http")',
};

/**
 * `handler` behind `policies`, the first listed running first. No policies:
 * `handler` itself, with nothing around it.
 *
 * @example
 * ```ts
 * import { applyPolicies, cors } from "@ramify/api/http";
 *
 * const guarded = applyPolicies(
 *   () => Promise.resolve(new Response("hi")),
 *   { name: "http", refuse: ({ status, message }) => new Response(message, { status }) },
 *   [cors(true)],
 * );
 * const response = await guarded(
 *   new Request("http://localhost/", { headers: { origin: "https://a.example" } }),
 * );
 * console.log(response.headers.get("access-control-allow-origin")); // "*"
 * ```
 *
 * @throws {TypeError} when `policies` is no list of policies, or names one twice.
 */
export function applyPolicies(
  handler: EdgeHandler,
  surface: EdgeSurface,
  policies: readonly Policy[] | undefined,
): EdgeHandler {
  if (policies === undefined || policies.length === 0) return handler;
  checkPolicies(policies);
  let next = handler;
  for (let i = policies.length - 1; i >= 0; i--) next = policies[i].apply(next, surface);
  return next;
}

/**
 * `handler` behind `policies`, for a handler told the runtime's server beside
 * the request that may take the request over and answer nothing (Bun's
 * WebSocket upgrade). Inside the chain a mark stands for "taken over", so each
 * policy still sees a `Response`; the mark comes out as `undefined`. The
 * chain is composed once; the server reaches the handler by the request (a
 * policy passes on the request it got).
 *
 * @example
 * ```ts
 * import { applyPoliciesToUpgrades } from "./edge.ts";
 * import { cors } from "./cors.ts";
 *
 * const upgrade = (request: Request, server: { upgrade(request: Request): boolean }) =>
 *   server.upgrade(request) ? undefined : new Response("no upgrade", { status: 400 });
 * const guarded = applyPoliciesToUpgrades(upgrade, {
 *   name: "graphql",
 *   refuse: ({ status, message }) => new Response(message, { status }),
 * }, [cors(true)]);
 * console.log(await guarded(new Request("http://localhost/"), { upgrade: () => true })); // undefined
 * ```
 *
 * @throws {TypeError} as {@linkcode applyPolicies} does.
 */
export function applyPoliciesToUpgrades<S>(
  handler: (request: Request, server: S) => Response | undefined | Promise<Response | undefined>,
  surface: EdgeSurface,
  policies: readonly Policy[],
): (request: Request, server: S) => Promise<Response | undefined> {
  const servers = new WeakMap<Request, S>();
  const takenOver = new WeakSet<Response>();
  const chain = applyPolicies(
    async (request) => {
      const answer = await handler(request, servers.get(request) as S);
      if (answer !== undefined) return answer;
      const mark = new Response(null);
      takenOver.add(mark);
      return mark;
    },
    surface,
    policies,
  );
  return async (request, server) => {
    servers.set(request, server);
    const answer = await chain(request);
    return takenOver.has(answer) ? undefined : answer;
  };
}

/**
 * Refuses, when a server is made, what is no list of policies or a list
 * naming one policy twice (a request would pass it twice).
 *
 * @example
 * ```ts
 * import { checkPolicies, cors } from "@ramify/api/http";
 *
 * checkPolicies([cors(true)]);
 * ```
 *
 * @throws {TypeError} naming what is wrong.
 */
export function checkPolicies(policies: unknown): asserts policies is readonly Policy[] {
  if (!Array.isArray(policies)) {
    throw new TypeError("policies: expected a list of policies, like [cors(), rateLimit(...)]");
  }
  const names = new Set<string>();
  for (const policy of policies as unknown[]) {
    const { name, apply } = (policy ?? {}) as Partial<Policy>;
    if (typeof name !== "string" || typeof apply !== "function") {
      throw new TypeError(
        "policies: each must be a policy value ({ name, apply }), such as cors() or rateLimit(...)",
      );
    }
    if (names.has(name)) throw new TypeError(`policies: "${name}" is listed twice`);
    names.add(name);
  }
}

/**
 * The response with `headers` added (`Vary` appended, the rest set): a copy
 * when its headers are immutable (a passed-through `fetch` answer). A
 * WebSocket upgrade's answer is left as it is: a copy would lose the socket.
 *
 * @example
 * ```ts
 * import { withHeaders } from "@ramify/api/http";
 *
 * const response = withHeaders(new Response("hi"), [["x-served-by", "edge"]]);
 * console.log(response.headers.get("x-served-by")); // "edge"
 * ```
 */
export function withHeaders(
  response: Response,
  headers: Iterable<readonly [string, string]>,
): Response {
  try {
    addHeaders(response.headers, headers);
    return response;
  } catch {
    if (response.status === 101) return response;
    const copy = new Response(response.body, response);
    addHeaders(copy.headers, headers);
    return copy;
  }
}

function addHeaders(target: Headers, headers: Iterable<readonly [string, string]>): void {
  for (const [name, value] of headers) {
    if (name === "vary") target.append(name, value);
    else target.set(name, value);
  }
}
