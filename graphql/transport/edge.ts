/**
 * GraphQL behind the edge (`applyPolicies`): a policy's refusal is a GraphQL
 * error, its code in `extensions.code`, with the policy's status and headers:
 * what a GraphQL client reads of any refused request.
 *
 * @example
 * ```ts
 * import { graphqlEdge } from "./edge.ts";
 *
 * const refused = graphqlEdge.refuse({
 *   status: 429,
 *   code: "TOO_MANY_REQUESTS",
 *   message: "Too many requests; try again later",
 * });
 * console.log(refused.status, (await refused.json()).errors[0].extensions.code);
 * // 429 "TOO_MANY_REQUESTS"
 * ```
 *
 * @module
 */

import type { EdgeSurface } from "../../web/edge.ts";
import { restEdge } from "../../web/respond.ts";

/** GraphQL over HTTP as policies see it. */
export const graphqlEdge: EdgeSurface = {
  name: "graphql",
  refuse: ({ status, code, message, headers }) =>
    Response.json({ errors: [{ message, extensions: { code } }] }, { status, headers }),
};

/**
 * The GraphQL WebSocket handshake as policies see it: a refused upgrade is
 * plain HTTP, so its answer is REST's, problem+json.
 *
 * @example
 * ```ts
 * import { graphqlWsEdge } from "./edge.ts";
 *
 * const refused = graphqlWsEdge.refuse({ status: 429, code: "TOO_MANY_REQUESTS", message: "Slow down" });
 * console.log(refused.headers.get("content-type")); // "application/problem+json"
 * ```
 */
export const graphqlWsEdge: EdgeSurface = { name: "graphql", refuse: restEdge.refuse };
