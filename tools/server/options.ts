/**
 * The options of the MCP server: {@linkcode McpOptions} over either transport,
 * {@linkcode McpHandlerOptions} over Streamable HTTP.
 *
 * @module
 */

import type { ContextFunction } from "../../tree/context.ts";
import type { Policy } from "../../web/edge.ts";
import type { ToolsOptions } from "../projection/describe.ts";
import type { McpCancellations, McpResumability, McpSessionStore } from "../sessions/store.ts";
import { knownKeys } from "../../tree/options.ts";
import type { HandlerContext } from "../../tree/node.ts";
import type { TaskRuntime } from "../../tasks/runtime.ts";
import type { ErrorObserver } from "../../tree/options.ts";

/**
 * Options of the MCP server, over either transport.
 *
 * @example
 * ```ts
 * import type { McpOptions } from "@ramify/api/tools";
 *
 * const opts: McpOptions = {
 *   name: "bookstore",
 *   version: "1.2.0",
 *   timeoutMs: 10_000,
 *   context: ({ request }) => ({ tenant: request?.headers.get("x-tenant") ?? "public" }),
 * };
 * ```
 */
export interface McpOptions extends ToolsOptions {
  /** The server's name in the handshake. Default `"ramify"`. */
  readonly name?: string;
  /** The server's version in the handshake. Default `"0.0.0"`. */
  readonly version?: string;
  /** Instructions for the model, sent in the handshake. */
  readonly instructions?: string;
  /** Tools per `tools/list` page (with a cursor to the next). Default 100. */
  readonly pageSize?: number;
  /**
   * Observes a fault (a crash, a result breaking its output schema, an
   * undeclared error) before the masked result is sent, and a session store
   * or cancellation channel failing; never the caller's mistakes, declared
   * errors, cancellations or timeouts. A tool's fault comes with the request
   * that carried the call (over HTTP; stdio has none). Default: `console.error`.
   */
  readonly onError?: ErrorObserver;
  /**
   * Milliseconds a tool may run: then its `signal` aborts and the result is a
   * `503` tool error. Default none.
   */
  readonly timeoutMs?: number;
  /**
   * How deep a tool call's arguments may nest (objects and arrays): deeper is
   * a `400` tool error before the handler runs, as a REST body or GraphQL
   * variables past the same option. Default 64.
   */
  readonly maxInputDepth?: number;
  /**
   * Makes the values tools' handlers and middleware see in their context. It
   * is told `{ surface: "mcp", request }` over HTTP (the request that carried
   * the call) and `{ surface: "mcp" }` over stdio. An `HttpError` it throws is
   * the tool's error result.
   */
  readonly context?: ContextFunction;
  /**
   * Headers the calls carry where the transport has none (stdio), so that
   * guards find their credentials there too: handlers see a request holding
   * them. Default none.
   */
  readonly headers?: ConstructorParameters<typeof Headers>[0];
  /**
   * Confirming a `destructive` tool before it runs, as the command line asks
   * `Proceed? [y/N]`: `"ask"` (default) asks a client that declared
   * elicitation (a form with one boolean) and refuses the call, with a line
   * saying how to allow it, to one that cannot be asked, as the command line
   * refuses without a terminal (`"require"` is the same); `"ask-or-run"` asks
   * a client that can be asked and runs the tool for one that cannot;
   * `"never"` never asks. A declined confirmation fails the call with
   * `aborted`, as the command line's "no".
   */
  readonly confirmDestructive?: "ask" | "require" | "ask-or-run" | "never";
  /**
   * The scheme of resource URIs: a `readOnly` leaf is the resource
   * `<scheme>://<path>`, its path the one the HTTP surface serves it at,
   * each capture a `{name}` variable (`ramify://books/{bookId}`). Default
   * `"ramify"`.
   */
  readonly resourceScheme?: string;
  /**
   * How long (ms) clients may cache `tools/list`, `prompts/list`,
   * `resources/list` and `resources/templates/list` (the 2026-07-28
   * revision's `ttlMs`, `cacheScope: "public"`): a tree's lists never change
   * while it is served, so this is how long a redeployed server may go
   * unnoticed. `0` disables caching. Default one hour.
   */
  readonly listTtlMs?: number;
  /**
   * The secrets sealing `requestState` (HMAC-SHA256), the state of a 2026-era
   * call asking its questions over several rounds (a handler's `ask`): the
   * first seals, every one opens, so a key is rotated by putting its
   * successor first and dropping it once its states have expired (ten
   * minutes). Every instance serving the same clients must share them. Each
   * at least 32 bytes (a string counts its UTF-8 bytes; else a `RangeError`
   * when the server is made). A state none of them opens (tampered, expired,
   * sealed by another server) is refused, `-32602`, before any handler runs.
   * Default: one random key per server, right only where one process serves
   * every round.
   */
  readonly requestStateKeys?: readonly (string | Uint8Array)[];
  /**
   * Where the tasks of long-running leaves (tag `longRunning`) run and are
   * kept, for clients of the tasks extension (`io.modelcontextprotocol/tasks`):
   * share one (`createTasks` of `@ramify/api/tasks`) with the other surfaces
   * and between instances. Default: one of the server's own, in memory, made
   * on its first task.
   */
  readonly tasks?: TaskRuntime;
  /**
   * Who a call speaks for, for its tasks (only the same identity reads,
   * answers or cancels one), from the context the leaf's guards made.
   * Default: as on every surface, the principal they established (`principalOf`).
   */
  readonly taskOwner?: (
    context: HandlerContext,
  ) => string | undefined | Promise<string | undefined>;
}

/**
 * Options of {@linkcode createMcpHandler}.
 *
 * @example
 * ```ts
 * import type { McpHandlerOptions } from "@ramify/api/tools";
 *
 * const opts: McpHandlerOptions = {
 *   allowedOrigins: ["localhost", "app.example.com"],
 *   maxBodyBytes: 256 * 1024,
 * };
 * ```
 */
export interface McpHandlerOptions extends McpOptions {
  /**
   * The hostnames a browser's `Origin` may name (port-agnostic); a request
   * from any other origin is a 403, which keeps DNS rebinding out. Requests
   * without `Origin` (non-browser clients) pass. Default: localhost names.
   */
  readonly allowedOrigins?: readonly string[];
  /** When given, the hostnames the `Host` header may name (403 otherwise). */
  readonly allowedHosts?: readonly string[];
  /**
   * The largest POST body accepted, in bytes: above it (declared, or counted
   * as it arrives) a `413` and a JSON-RPC error, as REST's and GraphQL's
   * `maxBodyBytes`. A positive integer (else a `RangeError` when the handler
   * is made). Default 1 MiB.
   */
  readonly maxBodyBytes?: number;
  /**
   * Milliseconds a POST's whole body may take to arrive: then a `408` and a
   * JSON-RPC error, as REST's and GraphQL's `bodyTimeoutMs`. Default 30,000.
   */
  readonly bodyTimeoutMs?: number;
  /**
   * Where 2025-era sessions live: any instance that reads the store serves a
   * session (`redisMcpSessions` of `@ramify/api/redis` for several instances).
   * While the store is unreachable, session requests are a `503`. Default: in
   * this process, bounded by `maxSessions` and `sessionIdleMs`.
   */
  readonly sessions?: McpSessionStore;
  /**
   * Carries a client's `notifications/cancelled` to the instance running the
   * call (a `PubSubBus`, or `redisMcpCancellations` of `@ramify/api/redis`).
   * Default: this process only.
   */
  readonly cancellations?: McpCancellations;
  /**
   * Who a request speaks for: a 2025-era session belongs to the identity of
   * the request that opened it, and a request of another identity, or of
   * none, is answered as for an unknown session (`404`), `DELETE` included.
   * Give the verified user's id (from a JWT's `sub`, say) so that a renewed
   * token keeps its session; `undefined` is no one. An `HttpError` it throws
   * is the answer (a `401`, say). Default: the request's credentials, its
   * `Authorization` header and each header or cookie a guard of the tree
   * (`auth()`) reads, kept as a SHA-256 fingerprint; none is no one. Under
   * an `oauth()` guard, a bearer token's principal (`iss`, `sub`): a renewed
   * token keeps its session, and the first token claims one opened without.
   */
  readonly sessionOwner?: (request: Request) => string | undefined | Promise<string | undefined>;
  /** With the default store: sessions kept at once; past it the least recently used ends. Default 1000. */
  readonly maxSessions?: number;
  /** With the default store: a session unused this long (ms) ends. Default 30 minutes. */
  readonly sessionIdleMs?: number;
  /**
   * Request policies in front of the endpoint, the first listed running first
   * (`[cors(...), rateLimit(...)]`, from `@ramify/api/http`): the same option
   * as the REST and GraphQL servers' and `serve()`'s. A refusal is a JSON-RPC
   * error with the policy's status (`429` with `Retry-After`). Default none.
   */
  readonly policies?: readonly Policy[];
  /**
   * Resumable call streams of 2025-era sessions (SEP-1699): each message of a
   * call's SSE answer carries an event id, after a first priming event (for
   * clients of 2025-11-25 and later), and a client whose stream ended gets
   * the rest with a GET carrying `Last-Event-ID`. Events are kept in this
   * process by default: a replay must then reach the instance that ran the
   * call; with `store: redisMcpEvents(redis)` (`@ramify/api/redis`) any
   * instance serves it. `false` turns it off. Default `{}`.
   */
  readonly resumability?: false | McpResumability;
}

/**
 * Every option of `serveMcpStdio`: any other key is refused when it is called.
 *
 * @example
 * ```ts
 * import { MCP_OPTIONS } from "./options.ts";
 *
 * console.log(MCP_OPTIONS.includes("instructions")); // true
 * ```
 */
export const MCP_OPTIONS = knownKeys<McpOptions>()([
  "warnMissingHints",
  "name",
  "version",
  "instructions",
  "pageSize",
  "onError",
  "timeoutMs",
  "maxInputDepth",
  "context",
  "headers",
  "confirmDestructive",
  "tasks",
  "taskOwner",
  "resourceScheme",
  "listTtlMs",
  "requestStateKeys",
]);

/**
 * Every option of `createMcpHandler`: any other key is refused when it is called.
 *
 * @example
 * ```ts
 * import { MCP_HANDLER_OPTIONS } from "./options.ts";
 *
 * console.log(MCP_HANDLER_OPTIONS.includes("allowedOrigins")); // true
 * ```
 */
export const MCP_HANDLER_OPTIONS = knownKeys<McpHandlerOptions>()([
  ...MCP_OPTIONS,
  "allowedOrigins",
  "allowedHosts",
  "maxBodyBytes",
  "bodyTimeoutMs",
  "sessions",
  "cancellations",
  "sessionOwner",
  "maxSessions",
  "sessionIdleMs",
  "policies",
  "resumability",
]);
