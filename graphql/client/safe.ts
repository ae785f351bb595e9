/**
 * `safeGraphQL()`: a typed GraphQL client call as a value instead of a
 * rejection, its declared errors narrowing by `code` (their data in
 * `details`, since a GraphQL error's `data` is the response's partial data).
 *
 * @example
 * ```ts
 * import { api, LeafError, op } from "@ramify/api/tree";
 * import { createGraphQLClient, createHttpGraphQLServer } from "@ramify/api/graphql";
 * import { httpTransport, safeGraphQL } from "@ramify/api/graphql/client";
 * import { z } from "zod";
 *
 * const tree = api({
 *   reserve: op(() => {
 *     throw new LeafError("TAKEN", { data: { by: "ann" } });
 *   }, { errors: { TAKEN: { status: 409, data: z.object({ by: z.string() }) } } }),
 * });
 * const client = createGraphQLClient(tree, {
 *   transport: httpTransport({ url: "http://localhost/graphql", fetch: createHttpGraphQLServer(tree) }),
 * });
 * const { error } = await safeGraphQL(client.reserve());
 * if (error?.code === "TAKEN") console.log(error.details.by); // "ann"
 * ```
 *
 * @module
 */

import type { ClientPromise, DeclaredDataOf } from "../../client/client_types.ts";
import type { Outcome } from "../../client/safe.ts";
import { GraphQLClientError } from "./remote.ts";

/**
 * Every `GraphQLClientError` a leaf's call may reject with, by its error
 * declarations: one member per declared code, and one with `code: undefined`.
 *
 * @example
 * ```ts
 * import type { GraphQLClientErrorFrom } from "@ramify/api/graphql/client";
 *
 * type Taken = GraphQLClientErrorFrom<{ TAKEN: { status: 409 } }>;
 * const code = (error: Taken) => error.code; // "TAKEN" | undefined
 * ```
 */
export type GraphQLClientErrorFrom<D> =
  | {
    [K in keyof D & string]: GraphQLClientError & {
      readonly code: K;
      readonly details: DeclaredDataOf<D[K]>;
    };
  }[keyof D & string]
  | (GraphQLClientError & { readonly code: undefined; readonly details: undefined });

/**
 * Waits for a GraphQL client call: `{ value }`, or `{ error }` when the
 * response held errors. Anything else (the network failing) still rejects.
 *
 * @example
 * ```ts
 * import { safeGraphQL } from "@ramify/api/graphql/client";
 *
 * const { value } = await safeGraphQL(Promise.resolve(1));
 * console.log(value); // 1
 * ```
 */
export async function safeGraphQL<T, D = Record<never, never>>(
  call: ClientPromise<T, D>,
): Promise<Outcome<T, GraphQLClientErrorFrom<D>>> {
  try {
    return { error: undefined, value: await call };
  } catch (error) {
    if (error instanceof GraphQLClientError) {
      return { error: error as GraphQLClientErrorFrom<D>, value: undefined };
    }
    throw error;
  }
}
