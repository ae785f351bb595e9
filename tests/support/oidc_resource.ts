// A minimal protected MCP server, written by hand from the MCP authorization spec and RFC 9728,
// to prove the harness against the official MCP client before the library does it: /mcp needs
// a bearer JWT from the provider with `aud` = its URL and scope books:read (verified with jose),
// else 401 with `WWW-Authenticate: Bearer resource_metadata="...", scope="books:read"`; its
// metadata is at /.well-known/oauth-protected-resource/mcp. Its tools answer what the token said:
// `whoami` with books:read, `reindex` only with catalog:admin too (else 403 insufficient_scope
// naming catalog:admin, the MCP step-up). Each request is logged as "METHOD PATH STATUS".
import { createRemoteJWKSet, jwtVerify } from "jose";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import type { OidcProvider } from "./oidc_provider.ts";

export interface McpResource {
  /** The MCP endpoint, also the resource identifier tokens must name. */
  readonly url: string;
  readonly metadataUrl: string;
  /** "METHOD PATH STATUS" per request, in order. */
  readonly log: string[];
}

const SCOPE = "books:read";
const ADMIN = "catalog:admin";

/** Serves the resource on a free port for the duration of `run`. */
export async function withMcpResource(
  provider: OidcProvider,
  run: (resource: McpResource) => Promise<void>,
): Promise<void> {
  const log: string[] = [];
  const keys = createRemoteJWKSet(new URL(provider.jwksUri));
  const mcp = createMcpHandler(() => {
    const server = new McpServer({ name: "oidc-resource", version: "1.0.0" });
    for (const name of ["whoami", "reindex"]) {
      server.registerTool(name, { description: "What the caller's token says" }, (ctx) => {
        const info = ctx.http?.authInfo;
        const identity = {
          clientId: info?.clientId,
          scopes: info?.scopes,
          audience: info?.resource?.href,
        };
        return { content: [{ type: "text", text: JSON.stringify(identity) }] };
      });
    }
    return server;
  });
  let base = "";
  const answer = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const url = `${base}/mcp`;
    const metadataUrl = `${base}/.well-known/oauth-protected-resource/mcp`;
    if (path === "/.well-known/oauth-protected-resource/mcp") {
      return Response.json({
        resource: url,
        authorization_servers: [provider.issuer],
        scopes_supported: [SCOPE],
        bearer_methods_supported: ["header"],
      });
    }
    if (path !== "/mcp") return new Response(null, { status: 404 });
    const challenge = (status: number, error?: string, scope = SCOPE) =>
      new Response(null, {
        status,
        headers: {
          "www-authenticate": `Bearer ${error ? `error="${error}", ` : ""}` +
            `resource_metadata="${metadataUrl}", scope="${scope}"`,
        },
      });
    const token = request.headers.get("authorization")?.match(/^Bearer (.+)$/)?.[1];
    if (token === undefined) return challenge(401);
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: provider.issuer,
        audience: url,
        typ: "at+jwt",
        algorithms: ["RS256"],
      }));
    } catch {
      return challenge(401, "invalid_token");
    }
    const scopes = String(payload.scope ?? "").split(" ").filter((each) => each !== "");
    if (!scopes.includes(SCOPE)) return challenge(403, "insufficient_scope");
    const message = await request.clone().json().catch(() => undefined);
    if (
      message?.method === "tools/call" && message.params?.name === "reindex" &&
      !scopes.includes(ADMIN)
    ) return challenge(403, "insufficient_scope", ADMIN);
    return await mcp.fetch(request, {
      authInfo: {
        token,
        clientId: String(payload.client_id),
        scopes,
        expiresAt: payload.exp,
        resource: new URL(String(payload.aud)),
      },
    });
  };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const response = await answer(request);
    log.push(`${request.method} ${new URL(request.url).pathname} ${response.status}`);
    return response;
  });
  base = `http://127.0.0.1:${server.addr.port}`;
  try {
    await run({
      url: `${base}/mcp`,
      metadataUrl: `${base}/.well-known/oauth-protected-resource/mcp`,
      log,
    });
  } finally {
    await mcp.close();
    await server.shutdown();
  }
}
