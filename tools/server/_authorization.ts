// MCP over HTTP as an OAuth protected resource (MCP 2026-07-28, basic/authorization): a request
// is checked against the guards that can check one ahead of a call (`Security.authenticate`,
// an `oauth()` guard's) before the SDK sees it, so that a refusal is an HTTP answer a client
// acts on (401: discover the metadata and get a token; 403 insufficient_scope: step up), not a
// tool error inside a 200. A request that reaches no guarded leaf (initialize, tools/list, a
// public tool) is served without a token; one that carries a bearer token has it verified
// whatever it asks, so that a bad token is refused alike everywhere. The guard still runs in
// the call path as on every surface: this gate only answers first.

import type { Node } from "../../tree/node.ts";
import type { LeafCall } from "../../tree/call.ts";
import { catalogueOf } from "../../tree/catalogue.ts";
import { securityOf } from "../../tree/middleware.ts";
import type { SecuredLeaf, Security } from "../../tree/security.ts";
import { HttpError } from "../../tree/http_error.ts";
import { isPlainObject } from "../../tree/plain_data.ts";
import { protectedResourceAnswer } from "../../web/protected_resource.ts";
import type { McpSurface } from "./_server.ts";
import { findResource } from "./_resource_read.ts";
import { MAX_PER_SESSION } from "./_subscriptions.ts";

/** A request's refusal, or undefined to serve it. */
export type Gate = (request: Request, parsed: unknown) => Promise<Response | undefined>;

/** A guarded leaf and the checks each of its guards makes. */
interface Guarded {
  readonly leaf: SecuredLeaf;
  readonly checks: readonly Security[];
}

/**
 * The gate of a tree whose guards check requests ahead of a call, with the
 * answer of its protected-resource metadata (RFC 9728) for a handler used
 * without `createFetch`; undefined for a tree with no such guard.
 */
export function authorizationGate(
  tree: Node,
  surface: McpSurface,
):
  | { readonly gate: Gate; readonly metadata?: (request: Request) => Response | undefined }
  | undefined {
  const byCall = new Map<LeafCall, Guarded>();
  const guards = new Set<Security>();
  for (const entry of catalogueOf(tree).entries) {
    const leaf = entry.leaf;
    const checks = securityOf(leaf).filter((security) => security.authenticate !== undefined);
    if (checks.length === 0) continue;
    // The catalogue's one prepared call, which tools, prompts and resources hold: a guarded leaf's.
    byCall.set(entry.call, { leaf, checks });
    for (const security of checks) guards.add(security);
  }
  if (guards.size === 0) return undefined;
  const leavesOf = (message: unknown): Guarded[] => {
    if (!isPlainObject(message) || typeof message.method !== "string") return [];
    const params = isPlainObject(message.params) ? message.params : {};
    const calls: (LeafCall | undefined)[] = [];
    const resource = (uri: unknown, updates: boolean) => {
      if (typeof uri !== "string" || surface.side === undefined) return;
      try {
        const found = findResource(surface.side.resources, uri)?.[0];
        calls.push(found?.call, updates ? found?.updates?.call : undefined);
      } catch {
        // A URI of a refused shape reaches no leaf: the SDK answers it as an invalid one.
      }
    };
    switch (message.method) {
      case "tools/call":
        calls.push(surface.toolsByName.get(String(params.name))?.call);
        break;
      case "prompts/get":
        calls.push(promptCall(surface, params.name));
        break;
      case "resources/read":
        resource(params.uri, false);
        break;
      case "resources/subscribe":
        resource(params.uri, true);
        break;
      case "subscriptions/listen": {
        const notifications = isPlainObject(params.notifications) ? params.notifications : {};
        const uris = notifications.resourceSubscriptions;
        if (Array.isArray(uris)) {
          for (const uri of uris.slice(0, MAX_PER_SESSION)) resource(uri, true);
        }
        break;
      }
      case "completion/complete":
        calls.push(completerCall(surface, params));
        break;
    }
    return calls.flatMap((call) => {
      const guarded = call === undefined ? undefined : byCall.get(call);
      return guarded === undefined ? [] : [guarded];
    });
  };
  const gate: Gate = async (request, parsed) => {
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    const reached = [...new Set(messages.flatMap(leavesOf))];
    try {
      if (reached.length === 0) {
        if (!carriesBearer(request)) return undefined;
        // No leaf to name its scopes: the token itself must verify, for some guard of the tree.
        let refused: unknown;
        for (const security of guards) {
          try {
            await security.authenticate!(request);
            return undefined;
          } catch (error) {
            refused ??= error;
          }
        }
        throw refused;
      }
      for (const { leaf, checks } of reached) {
        for (const security of checks) await security.authenticate!(request, leaf);
      }
      return undefined;
    } catch (error) {
      // Anything but a refusal is left to the call path, which meets it again and observes it.
      return error instanceof HttpError ? refusalResponse(error) : undefined;
    }
  };
  return { gate, metadata: protectedResourceAnswer(tree) };
}

/** Whether a request presents a bearer token, in its header or (refused) in its URL. */
function carriesBearer(request: Request): boolean {
  const header = request.headers.get("authorization");
  if (header !== null && /^bearer\s/i.test(header)) return true;
  return request.url.includes("access_token") &&
    new URL(request.url, "http://localhost").searchParams.has("access_token");
}

function promptCall(surface: McpSurface, name: unknown): LeafCall | undefined {
  return surface.prompts.find((prompt) => prompt.descriptor.name === name)?.call;
}

/** The leaf a completion runs: a prompt argument's completer, or a template variable's. */
function completerCall(
  surface: McpSurface,
  params: Readonly<Record<string, unknown>>,
): LeafCall | undefined {
  const ref = isPlainObject(params.ref) ? params.ref : {};
  const argument = isPlainObject(params.argument) ? String(params.argument.name) : "";
  if (ref.type === "ref/prompt") {
    return surface.prompts.find((prompt) => prompt.descriptor.name === ref.name)?.completers
      .get(argument);
  }
  const template = surface.side?.resources.templates.find((entry) => entry.uri === ref.uri);
  return template === undefined || !Object.hasOwn(template.completers, argument)
    ? undefined
    : template.completers[argument].call;
}

/**
 * A refusal as the SDK's own bearer gate answers one: the status, the
 * guard's headers (`WWW-Authenticate`, `Retry-After`) and an OAuth error
 * body (`error`, `error_description`: the guard's line, which never holds the
 * token). A client reads the challenge; the body is for a person.
 */
function refusalResponse(error: HttpError): Response {
  const data = isPlainObject(error.problem.data) ? error.problem.data : {};
  const code = typeof data.error === "string"
    ? data.error
    : error.status === 401
    ? "invalid_token"
    : error.status === 403
    ? "insufficient_scope"
    : "temporarily_unavailable";
  const headers = new Headers(error.headers);
  headers.set("content-type", "application/json");
  headers.set("cache-control", "no-store");
  return new Response(JSON.stringify({ error: code, error_description: error.message }), {
    status: error.status,
    headers,
  });
}
