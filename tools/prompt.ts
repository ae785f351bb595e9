/**
 * Prompts in the tree: {@linkcode prompt} makes a leaf whose handler renders
 * messages for a model from typed arguments. It is a real leaf: `readOnly`,
 * served at its route over HTTP (a `GET` answering the rendered messages),
 * and listed by the MCP server as a prompt (`prompts/list`, `prompts/get`
 * answer the same value), not as a tool unless `tools` opts it in. The words
 * authors write for MCP, beside the MCP surface as `http/verbs.ts` is beside
 * HTTP; what marks the leaf (`meta.prompt`, `PromptMeta`) is `Meta`'s, in
 * tree/prompt_meta.ts.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { api } from "@ramify/api/tree";
 * import { prompt } from "@ramify/api/tools";
 *
 * const tree = api({
 *   review: prompt(({ title }) => `Write a short review of "${title}".`, {
 *     input: z.object({ title: z.string() }),
 *     description: "Asks for a book review",
 *   }),
 * });
 * ```
 *
 * @module
 */

import type { StandardSchemaV1 } from "@standard-schema/spec";
import { op } from "../tree/construct.ts";
import type { HandlerContext, Leaf, Meta, PromptMeta, ToolsMeta } from "../tree/node.ts";
import type { ErrorDeclarations } from "../tree/errors.ts";
import type { Use } from "../tree/middleware.ts";
import { bytesOf, isBytes } from "../tree/bytes.ts";
import { base64 } from "../tree/content.ts";
import { isPlainObject } from "../tree/plain_data.ts";

/** Bytes, or their base64 text. */
type Data = Blob | ArrayBuffer | ArrayBufferView | string;

/**
 * One piece of a prompt message: text, an image or audio (bytes or base64,
 * with their media type), or an embedded resource (text, or bytes as a blob).
 *
 * @example
 * ```ts
 * import type { PromptContent } from "@ramify/api/tools";
 *
 * const parts: PromptContent[] = [
 *   { type: "text", text: "Describe this cover." },
 *   { type: "image", data: new Blob([new Uint8Array([137, 80])], { type: "image/png" }) },
 *   { type: "resource", resource: { uri: "ramify://books/1", mimeType: "application/json", text: "{}" } },
 * ];
 * ```
 */
export type PromptContent =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image" | "audio"; readonly data: Data; readonly mimeType?: string }
  | {
    readonly type: "resource";
    readonly resource:
      | { readonly uri: string; readonly mimeType?: string; readonly text: string }
      | { readonly uri: string; readonly mimeType?: string; readonly blob: Data };
  };

/**
 * A message a prompt renders: who says it and what (a string is text).
 *
 * @example
 * ```ts
 * import type { PromptMessage } from "@ramify/api/tools";
 *
 * const messages: PromptMessage[] = [
 *   { role: "user", content: "Hello" },
 *   { role: "assistant", content: { type: "text", text: "Hi, what shall we read?" } },
 * ];
 * ```
 */
export interface PromptMessage {
  /** Who speaks. */
  readonly role: "user" | "assistant";
  /** What is said. */
  readonly content: string | PromptContent;
}

/**
 * A rendered prompt as every surface serves it (MCP's `GetPromptResult`):
 * binary content as base64 with its media type.
 *
 * @example
 * ```ts
 * import type { RenderedPrompt } from "@ramify/api/tools";
 *
 * const rendered: RenderedPrompt = {
 *   messages: [{ role: "user", content: { type: "text", text: "Hello" } }],
 * };
 * ```
 */
export interface RenderedPrompt {
  /** The prompt's description. */
  readonly description?: string;
  /** The messages. */
  readonly messages: readonly {
    readonly role: "user" | "assistant";
    readonly content: Readonly<Record<string, unknown>>;
  }[];
}

/**
 * Options of {@linkcode prompt}.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import type { PromptOptions } from "@ramify/api/tools";
 *
 * const opts: PromptOptions<z.ZodObject<{ topic: z.ZodString }>> = {
 *   input: z.object({ topic: z.string() }),
 *   title: "Explain a topic",
 * };
 * ```
 */
export interface PromptOptions<
  S extends StandardSchemaV1 | undefined = undefined,
  E extends ErrorDeclarations = Record<never, never>,
> extends PromptMeta {
  /** The arguments (a flat object schema; MCP lists its properties as the prompt's arguments). */
  readonly input?: S;
  /**
   * The errors `render` may raise, by code, as any leaf declares them: a
   * `LeafError` of one of them reaches the caller with its status, code and
   * data (MCP: `-32602` for a 4xx, `-32603` else), never masked as a crash.
   */
  readonly errors?: E;
  /** What the prompt is for. */
  readonly description?: string;
  /** The leaf as a tool too: not one unless given (`{}` opts in with derived names). */
  readonly tools?: ToolsMeta;
}

/** What a prompt's render function may return. */
type Rendered = string | readonly PromptMessage[];

/**
 * Makes a prompt leaf: `render` turns the (validated) arguments into a
 * string (one user message) or messages. The leaf is `readOnly`; it answers
 * the {@linkcode RenderedPrompt} on every surface that serves leaves. Like any
 * leaf it declares `errors` and takes `use()` middleware (its guards), given
 * after the options, through the one call path on every surface.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { prompt } from "@ramify/api/tools";
 *
 * const summarize = prompt(({ text }) => [
 *   { role: "user", content: `Summarize:\n${text}` },
 * ], { input: z.object({ text: z.string() }), title: "Summarize a text" });
 * ```
 *
 * @example A guarded prompt with a declared error
 * ```ts
 * import { z } from "zod";
 * import { HttpError, LeafError, use, type Middleware } from "@ramify/api/tree";
 * import { prompt } from "@ramify/api/tools";
 *
 * const staff: Middleware<{ user: string }> = (call, next) => {
 *   const user = call.context.request?.headers.get("x-user");
 *   if (user === null || user === undefined) throw new HttpError(401, "Sign in");
 *   return next({ user });
 * };
 * const brief = prompt(({ topic }, ctx) => {
 *   if (topic === "secrets") throw new LeafError("OFF_LIMITS");
 *   return `${ctx.user} asks for a brief on ${topic}`;
 * }, {
 *   input: z.object({ topic: z.string() }),
 *   errors: { OFF_LIMITS: { status: 403, message: "Not a topic for briefs" } },
 * }, use(staff));
 * ```
 *
 * @throws {TypeError} when `render` is not a function.
 */
export function prompt<
  S extends StandardSchemaV1 | undefined = undefined,
  E extends ErrorDeclarations = Record<never, never>,
  C extends object = Record<never, never>,
>(
  render: (
    input: S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : Record<string, never>,
    context: HandlerContext & C,
  ) => Rendered | Promise<Rendered>,
  options: PromptOptions<S, E> = {},
  ...guards: readonly Use<C>[]
): Leaf<Record<string, unknown>, RenderedPrompt, Record<string, unknown>, undefined, E> {
  if (typeof render !== "function") {
    throw new TypeError("prompt(): render must be a function");
  }
  const { input, description, tools, name, title, complete, errors } = options;
  const meta: PromptMeta = {
    ...(name === undefined ? {} : { name }),
    ...(title === undefined ? {} : { title }),
    ...(complete === undefined ? {} : { complete }),
  };
  const handler = async (args: Record<string, unknown>, context: HandlerContext) =>
    renderedOf(await render(args as never, context as HandlerContext & C), description);
  const leaf = op as unknown as (fn: typeof handler, ...meta: readonly Meta[]) => unknown;
  return leaf(handler, {
    ...(input === undefined ? {} : { input }),
    ...(errors === undefined ? {} : { errors }),
    ...(description === undefined ? {} : { description }),
    tags: { readOnly: true },
    prompt: meta,
    tools: tools === undefined ? { tool: false } : tools,
  }, ...guards) as Leaf<
    Record<string, unknown>,
    RenderedPrompt,
    Record<string, unknown>,
    undefined,
    E
  >;
}

/** What `render` returned as the served value. */
async function renderedOf(rendered: Rendered, description?: string): Promise<RenderedPrompt> {
  const messages = typeof rendered === "string"
    ? [{ role: "user" as const, content: rendered }]
    : rendered;
  if (!Array.isArray(messages)) {
    throw new TypeError("prompt(): render must return a string or a list of messages");
  }
  const out: RenderedPrompt["messages"][number][] = [];
  for (const message of messages) {
    if (!isPlainObject(message) || (message.role !== "user" && message.role !== "assistant")) {
      throw new TypeError('prompt(): each message needs role "user" or "assistant"');
    }
    const role: "user" | "assistant" = message.role;
    out.push({ role, content: await contentOf(message.content) });
  }
  return { ...(description === undefined ? {} : { description }), messages: out };
}

async function contentOf(content: unknown): Promise<Record<string, unknown>> {
  if (typeof content === "string") return { type: "text", text: content };
  if (!isPlainObject(content)) throw new TypeError("prompt(): a message's content is not content");
  switch (content.type) {
    case "text":
      return { type: "text", text: String(content.text) };
    case "image":
    case "audio": {
      const { data, mimeType } = await base64Of(content.data, content.mimeType);
      return { type: content.type, data, mimeType };
    }
    case "resource": {
      const resource = content.resource;
      if (!isPlainObject(resource) || typeof resource.uri !== "string") break;
      if (typeof resource.text === "string") {
        return { type: "resource", resource: { ...resource } };
      }
      const { data, mimeType } = await base64Of(resource.blob, resource.mimeType);
      return { type: "resource", resource: { uri: resource.uri, mimeType, blob: data } };
    }
  }
  throw new TypeError(`prompt(): unknown content ${JSON.stringify(content.type)}`);
}

/** Bytes as base64 and their media type (the one given, else the value's own). */
async function base64Of(
  data: unknown,
  given: unknown,
): Promise<{ data: string; mimeType: string }> {
  const stated = typeof given === "string" ? given : undefined;
  if (typeof data === "string") {
    if (stated === undefined) throw new TypeError("prompt(): base64 data needs its mimeType");
    return { data, mimeType: stated };
  }
  if (!isBytes(data) || data instanceof ReadableStream) {
    throw new TypeError("prompt(): image, audio and blob data must be bytes or base64 text");
  }
  // Not a stream: bytesOf gives a Blob.
  const { body, type } = bytesOf(data);
  return {
    data: base64(new Uint8Array(await (body as Blob).arrayBuffer())),
    mimeType: stated ?? type,
  };
}
