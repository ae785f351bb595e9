/**
 * The bookstore's GraphQL client for a browser: the tree only as a type, the
 * documents from the generated manifest (`deno task gen:client`).
 *
 * @module
 */

import { createGraphQLClientFromManifest, httpTransport } from "@ramify/api/graphql/client";
import type { Bookstore } from "./bookstore.ts";
import { graphqlRoutes } from "./bookstore_routes.ts";

/** A typed bookstore GraphQL client for the endpoint at `url`; `token` for mutations. */
export function bookstoreGraphQLClient(url: string, token?: string) {
  const headers: Record<string, string> = token === undefined
    ? {}
    : { authorization: `Bearer ${token}` };
  return createGraphQLClientFromManifest<Bookstore>(graphqlRoutes, {
    transport: httpTransport({ url, headers }),
  });
}
