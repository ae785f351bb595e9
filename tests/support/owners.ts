// The ways back to a task for the ownership suite (tests/agreement_ownership_test.ts), as raw
// clients send them with a caller's bearer token: one 2026-07-28 MCP request of a client that
// declares the tasks extension (its HTTP status, challenge and JSON-RPC answer), the events of one
// graphql-ws operation, a bound on a wait that would otherwise hang a broken run, and what each
// surface's answer says of the task (its status, or the refusal's HTTP status).
import assert from "node:assert/strict";
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

/** What a way back to a task gives: the task's status, or the refusal's HTTP status. */
export type Seen = { readonly status: string } | { readonly refused: number };

/** A GraphQL error's code as the HTTP status it stands for (an unknown one fails the test). */
const CODES: Record<string, number> = { UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404 };

/** A GraphQL answer of `field` as seen. */
export function graphqlSeen(result: ExecutionResult, field: string): Seen {
  const task = (result.data as Record<string, { status: string } | null> | null | undefined)?.[
    field
  ];
  if (task) return { status: task.status.toLowerCase() };
  const code = String(result.errors?.[0]?.extensions?.code);
  if (CODES[code] === undefined) throw new Error(`GraphQL answered ${JSON.stringify(result)}`);
  return { refused: CODES[code] };
}

/** REST's answer as seen; a 401 must be the guard's problem with its challenge. */
export async function restSeen(response: Response): Promise<Seen> {
  const body = await response.json();
  if (response.ok) return { status: body.status };
  if (response.status === 401) {
    assert.match(response.headers.get("content-type") ?? "", /^application\/problem\+json/);
    assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer error="invalid_token"/);
  }
  return { refused: response.status };
}

/** MCP's refusal as seen (an HTTP 401 with its challenge, the unknown task); undefined if none. */
export function mcpRefusal(answer: McpAnswer): Seen | undefined {
  if (answer.status === 401) {
    assert.match(answer.challenge ?? "", /^Bearer error="invalid_token"/, answer.text);
    return { refused: 401 };
  }
  const error = answer.message?.error;
  if (answer.status !== 200 || error !== undefined && error.code !== -32602) {
    throw new Error(`MCP answered ${answer.status} ${answer.text ?? JSON.stringify(error)}`);
  }
  return error === undefined ? undefined : { refused: 404 };
}

/** The CLI's answer as seen: the task it wrote, or its failure's status (exit 1). */
export function cliSeen({ code, out, err }: { code: number; out: string; err: string }): Seen {
  if (code === 0) return { status: JSON.parse(out).status };
  const status = /^error: (\d{3}) /.exec(err)?.[1];
  if (code !== 1 || status === undefined) throw new Error(`the CLI exited ${code}: ${err}`);
  return { refused: Number(status) };
}
