// The ways back to a task for the ownership suite (tests/agreement_ownership_test.ts), as raw
// clients send them with a caller's bearer token: one 2026-07-28 MCP request of a client that
// declares the tasks extension (its HTTP status, challenge and JSON-RPC answer), the events of one
// graphql-ws operation, and a bound on a wait that would otherwise hang a broken run.
import type { Client as WsClient, ExecutionResult } from "graphql-ws";
import { answerOf, type JsonRpcMessage, modernRequest } from "./mcp_wire.ts";

/** The `_meta` of a 2026-07-28 request from a client declaring the tasks extension. */
export const TASKS_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {
    extensions: { "io.modelcontextprotocol/tasks": {} },
  },
} as const;

/** `Authorization: Bearer <token>`, or no header for no token. */
export function bearer(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/** An MCP answer over HTTP: its status, its `WWW-Authenticate`, its JSON-RPC message (200 only). */
export interface McpAnswer {
  readonly status: number;
  readonly challenge: string | null;
  readonly message?: JsonRpcMessage;
  readonly text?: string;
}

/** One 2026-07-28 request to `url` as `token`'s bearer, from a client of the tasks extension. */
export async function mcpTasksRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
  token: string | undefined,
): Promise<McpAnswer> {
  const { id, init } = modernRequest(
    { method, params: { ...params, _meta: TASKS_META } },
    bearer(token),
  );
  const response = await fetch(url, init);
  const challenge = response.headers.get("www-authenticate");
  if (response.status !== 200) {
    return { status: response.status, challenge, text: await response.text() };
  }
  return { status: 200, challenge, message: await answerOf(response, id) };
}

/** One graphql-ws operation: its first event, and every event once it ended. */
export function wsEvents(
  socket: WsClient,
  query: string,
  variables: Record<string, unknown>,
): { first: Promise<ExecutionResult>; all: Promise<ExecutionResult[]> } {
  const events: ExecutionResult[] = [];
  let first!: (event: ExecutionResult) => void;
  const firstEvent = new Promise<ExecutionResult>((resolve) => first = resolve);
  const all = new Promise<ExecutionResult[]>((resolve, reject) => {
    const seen = (event: ExecutionResult) => {
      events.push(event);
      first(event);
    };
    socket.subscribe({ query, variables }, {
      next: seen,
      // An `error` message (GraphQL errors before execution) is an event too; anything else fails.
      error: (error) => {
        if (!Array.isArray(error)) return reject(error);
        seen({ errors: error } as ExecutionResult);
        resolve(events);
      },
      complete: () => resolve(events),
    });
  });
  // Ended with no event (a socket that failed): the first event is that failure.
  const ended = all.then(() => Promise.reject(new Error("the operation ended with no event")));
  ended.catch(() => {});
  return { first: Promise.race([firstEvent, ended]), all };
}

/** `promise`, or a failure naming `what` past `ms`: a guard against a hang, not a time limit. */
export async function bounded<T>(promise: Promise<T>, what: string, ms = 30_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer for ${what} in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The JSON-RPC messages of a server-sent event stream, read until `enough` holds of those read so
 * far or the stream ends; the stream is then let go.
 */
export async function sseMessages(
  response: Response,
  enough: (messages: readonly JsonRpcMessage[]) => boolean = () => false,
): Promise<JsonRpcMessage[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const messages: JsonRpcMessage[] = [];
  let buffered = "";
  try {
    while (!enough(messages)) {
      const { done, value } = await reader.read();
      if (done) break;
      const events = (buffered += value).split("\n\n");
      buffered = events.pop()!;
      for (const event of events) {
        const data = event.split("\n").filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trim()).join("");
        if (data !== "") messages.push(JSON.parse(data));
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return messages;
}
