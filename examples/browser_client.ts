/**
 * The bookstore's client for a browser: the tree only as a type, the routes
 * from the generated manifest (`deno task gen:client`). A bundle of this file
 * holds the client runtime and the manifest, nothing of the server.
 *
 * @module
 */

import { createClientFromManifest } from "@ramify/api/client";
import type { Bookstore } from "./bookstore.ts";
import { routes } from "./bookstore_routes.ts";

/** A typed bookstore client for the server at `baseUrl`; `token` for mutations. */
export function bookstoreClient(baseUrl: string, token?: string) {
  return createClientFromManifest<Bookstore>(routes, {
    baseUrl,
    ...(token === undefined ? {} : { token }),
  });
}
