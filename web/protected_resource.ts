/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) of a tree: every guard
 * that names a protected resource (`oauth()` of `@ramify/api/auth`) has its
 * metadata answered at `/.well-known/oauth-protected-resource` and at its
 * path-suffixed form (`/.well-known/oauth-protected-resource/mcp` for the
 * resource `https://host/mcp`), where its challenges' `resource_metadata`
 * points. `scopes_supported` lists the scopes its leaves need. Used by
 * `createFetch` (and so `serve()`), and by any edge that answers for a tree.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api";
 * import { protectedResourceAnswer } from "@ramify/api/http";
 *
 * console.log(protectedResourceAnswer(api({ ping: op(() => "pong") }))); // undefined: no guard
 * ```
 *
 * @module
 */

import type { Node } from "../tree/node.ts";
import { catalogueOf } from "../tree/catalogue.ts";
import { type ProtectedResourceMetadata, securityOf } from "../tree/middleware.ts";

const PREFIX = "/.well-known/oauth-protected-resource";

/**
 * The metadata answer of a tree's protected resources: a function that gives
 * the `Response` for a GET or HEAD of one of their metadata paths, and
 * `undefined` for any other request; `undefined` itself when no guard of the
 * tree names a protected resource.
 *
 * @example
 * ```ts
 * import { api, op, use } from "@ramify/api";
 * import { protectedResourceAnswer } from "@ramify/api/http";
 * import { oauth } from "@ramify/api/auth";
 *
 * const guard = oauth({ issuer: "https://login.example", audience: "https://api.example/mcp" });
 * const answer = protectedResourceAnswer(api({ me: op(() => 1, use(guard)) }))!;
 * const response = answer(new Request("https://api.example/.well-known/oauth-protected-resource/mcp"));
 * console.log((await response?.json()).resource); // "https://api.example/mcp"
 * ```
 */
export function protectedResourceAnswer(
  tree: Node,
): ((request: Request) => Response | undefined) | undefined {
  const byPath = new Map<string, { metadata: ProtectedResourceMetadata; scopes: Set<string> }>();
  for (const { leaf } of catalogueOf(tree).entries) {
    for (const security of securityOf(leaf)) {
      const resource = security.resource;
      if (resource === undefined) continue;
      const scopes = security.scopesFor?.(leaf) ?? security.scopes;
      for (const path of resource.metadataPaths) {
        let published = byPath.get(path);
        // The first guard to name a path keeps it: the bare path goes to the first resource.
        if (published === undefined) {
          published = { metadata: resource.metadata, scopes: new Set() };
          byPath.set(path, published);
        }
        if (published.metadata.resource === resource.metadata.resource) {
          for (const scope of scopes) published.scopes.add(scope);
        }
      }
    }
  }
  if (byPath.size === 0) return undefined;
  const bodies = new Map<string, string>();
  for (const [path, { metadata, scopes }] of byPath) {
    bodies.set(path, JSON.stringify({ ...metadata, scopes_supported: [...scopes].sort() }));
  }
  return (request) => {
    // Most requests are not for it: a substring test before any URL is parsed.
    if (!request.url.includes(PREFIX)) return undefined;
    // A base for a relative URL: Bun gives one to a request without `Host`.
    const body = bodies.get(new URL(request.url, "http://localhost").pathname);
    if (body === undefined || (request.method !== "GET" && request.method !== "HEAD")) {
      return undefined;
    }
    return new Response(request.method === "HEAD" ? null : body, {
      headers: {
        "content-type": "application/json",
        "cache-control": "public, max-age=3600",
        "access-control-allow-origin": "*",
      },
    });
  };
}
