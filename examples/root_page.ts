/**
 * The bookstore's front door: a browser that opens `/` (it asks for
 * `text/html`) gets a small page linking every surface the handler serves;
 * any other request, `/` from an API client included, goes on to the handler
 * as it is (an unknown path stays a `404` problem+json).
 *
 * @module
 */

import type { ServedPaths, ServeHandler } from "@ramify/api/serve";

/** Whether a request comes from a browser's address bar: it names `text/html` among what it accepts. */
function wantsHtml(request: Request): boolean {
  return (request.headers.get("accept") ?? "").includes("text/html");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The page: the title, then a link to each surface `paths` names (the API
 * document, Swagger UI, GraphiQL, the MCP endpoint, the health check).
 *
 * @example
 * ```ts
 * import { rootPage } from "./root_page.ts";
 *
 * const page = rootPage("Bookstore", { openapi: "/openapi.json", mcp: "/mcp" });
 * console.log(page.includes('href="/openapi.json"')); // true
 * ```
 */
export function rootPage(title: string, paths: ServedPaths): string {
  const links: [string | undefined, string][] = [
    [paths.openapi, "The API document (OpenAPI 3.1)"],
    [paths.docs, "Swagger UI: read and try the REST API"],
    [paths.graphiql, "GraphiQL: the same operations as GraphQL"],
    [paths.mcp, "The MCP endpoint (Streamable HTTP), for an MCP client, not a browser"],
    [paths.health, "Health check"],
  ];
  const items = links.filter((link): link is [string, string] => link[0] !== undefined)
    .map(([path, text]) =>
      `<li><a href="${escapeHtml(path)}">${escapeHtml(text)}</a> <code>${
        escapeHtml(path)
      }</code></li>`
    );
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>One tree of operations, served on every surface:</p>
<ul>
${items.join("\n")}
</ul>
</body>
</html>
`;
}

/**
 * `handler` with the page at `/` for a browser (`GET` or `HEAD` that accepts
 * `text/html`); every other request goes to `handler` unchanged.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api";
 * import { createHandler } from "@ramify/api/serve";
 * import { withRootPage } from "./root_page.ts";
 *
 * const handler = withRootPage(
 *   await createHandler(api({ ping: op(() => "pong") }), { graphql: false, mcp: false }),
 *   "Ping",
 * );
 * const page = await handler.fetch(new Request("http://localhost/", { headers: { accept: "text/html" } }));
 * console.log(page?.headers.get("content-type")); // "text/html; charset=utf-8"
 * ```
 */
export function withRootPage(handler: ServeHandler, title: string): ServeHandler {
  const page = rootPage(title, handler.paths);
  return {
    fetch(request, server) {
      const { pathname } = new URL(request.url);
      if (
        pathname === "/" && (request.method === "GET" || request.method === "HEAD") &&
        wantsHtml(request)
      ) {
        return Promise.resolve(
          new Response(request.method === "HEAD" ? null : page, {
            headers: {
              "content-type": "text/html; charset=utf-8",
              "content-security-policy": "default-src 'none'",
              "x-content-type-options": "nosniff",
              vary: "accept",
            },
          }),
        );
      }
      return handler.fetch(request, server);
    },
    websocket: handler.websocket,
    paths: handler.paths,
    close: () => handler.close(),
  };
}
