// The tree the official MCP conformance suite is run against
// (tests/tools/conformance_test.ts): the suite's reference tools, resources
// and prompts, written as any ramify tree is, with no MCP code in it. Names
// are the suite's: a child's name is its tool name, its route path the
// resource URI's path (`resourceScheme: "test"`). The suite's tools that ask
// the client's model (sampling) or its roots are not here: a handler can do
// neither (the test lists those scenarios as expected failures).
import { z } from "zod";
import {
  api,
  ask,
  content,
  type FormSchema,
  HttpError,
  log,
  op,
  progress,
  type Question,
} from "@ramify/api/tree";
import { prompt } from "@ramify/api/tools";
import type { McpHandlerOptions } from "@ramify/api/tools";

/** A 1x1 red PNG. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  ),
  (char) => char.charCodeAt(0),
);

/** A WAV header with no samples: the smallest valid audio. */
const WAV = Uint8Array.from(
  atob("UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="),
  (char) => char.charCodeAt(0),
);

// SEP-2106's fixture: every 2020-12 keyword written here must reach tools/list as it is.
const address = z.object({ street: z.string(), city: z.string() })
  .meta({ id: "address", $anchor: "addressDef" });
const contact = z.object({
  name: z.string().optional(),
  address: address.optional(),
  contactMethod: z.enum(["phone", "email"]).optional(),
  phone: z.string().optional(),
  email: z.string().optional(),
}).strict().meta({
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
});

const readOnly = { readOnly: true } as const;

/** Calls running longer than this have their stream closed, to poll (SEP-1699). */
const POLL_AFTER_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a tool that asked says of the answer. */
function answered(said: Awaited<ReturnType<typeof ask>>): string {
  const given = "content" in said ? JSON.stringify(said.content) : "{}";
  return `Elicitation completed: action=${said.action}, content=${given}`;
}

/** A form of one required field of the type given. */
function oneField(name: string, type: "string" | "boolean"): FormSchema {
  return { type: "object", properties: { [name]: { type } }, required: [name] };
}

/** The accepted answer of a question, or a refusal: the 2026 scenarios answer every one. */
async function answerOf(
  context: Parameters<typeof ask>[0],
  question: Question<FormSchema>,
): Promise<Record<string, unknown>> {
  const said = await ask(context, question);
  if (said.action !== "accept") throw new HttpError(409, `Not answered: ${said.action}`);
  return said.content;
}

/** test_tool_with_task's question, asked before its task is made. */
const USER_NAME = {
  key: "user_name",
  message: "What is your name?",
  schema: oneField("name", "string"),
} as const;

/** SEP-1034: a default for every primitive type. */
export const DEFAULTS: FormSchema = {
  type: "object",
  properties: {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
  },
};

/** SEP-1330: every kind of enum, titled or not, single or multiple. */
const ENUMS: FormSchema = {
  type: "object",
  properties: {
    untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
    titledSingle: {
      type: "string",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: {
      type: "string",
      enum: ["opt1", "opt2", "opt3"],
      enumNames: ["Option One", "Option Two", "Option Three"],
    },
    untitledMulti: {
      type: "array",
      items: { type: "string", enum: ["option1", "option2", "option3"] },
    },
    titledMulti: {
      type: "array",
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  },
};

export const tree = api({
  test_simple_text: op(() => "This is a simple text response for testing.", {
    description: "Returns simple text",
    tags: readOnly,
  }),
  test_image_content: op(() => new Blob([PNG], { type: "image/png" }), {
    description: "Returns a PNG image",
    tags: readOnly,
  }),
  test_audio_content: op(() => new Blob([WAV], { type: "audio/wav" }), {
    description: "Returns a WAV sound",
    tags: readOnly,
  }),
  test_embedded_resource: op(
    () =>
      new File(["This is an embedded resource content."], "test://embedded-resource", {
        type: "text/plain",
      }),
    { description: "Returns an embedded text resource", tags: readOnly },
  ),
  test_multiple_content_types: op(async () =>
    await content(
      "Multiple content types test:",
      new Blob([PNG], { type: "image/png" }),
      new File(['{"test":"data","value":123}'], "test://mixed-content-resource", {
        type: "application/json",
      }),
    ), { description: "Returns text, an image and a resource", tags: readOnly }),
  test_error_handling: op((): string => {
    throw new Error("This tool intentionally returns an error for testing");
  }, { description: "Always fails", tags: readOnly }),
  // Outlives the server's `pollAfterMs`: its stream closes mid-call and the client resumes it.
  test_reconnection: op(async () => {
    await new Promise((resolve) => setTimeout(resolve, 10 * POLL_AFTER_MS));
    return "Reconnection test completed successfully";
  }, { description: "Runs past the stream's polling close", tags: readOnly }),
  test_tool_with_logging: op(async (_input, context) => {
    log(context, "info", "Tool execution started");
    await sleep(50);
    log(context, "info", "Tool processing data");
    await sleep(50);
    log(context, "info", "Tool execution completed");
    return "Logged three messages";
  }, { description: "Logs as it runs", tags: readOnly }),
  test_tool_with_progress: op(async (_input, context) => {
    progress(context, 0, 100);
    await sleep(50);
    progress(context, 50, 100);
    await sleep(50);
    progress(context, 100, 100);
    return "Progress reported";
  }, { description: "Reports its progress", tags: readOnly }),
  test_elicitation: op(async ({ message }, context) => {
    const said = await ask(context, {
      message,
      schema: {
        type: "object",
        properties: {
          username: { type: "string", description: "User's response" },
          email: { type: "string", description: "User's email address" },
        },
        required: ["username", "email"],
      },
    });
    const given = "content" in said ? JSON.stringify(said.content) : "{}";
    return `User response: action=${said.action}, content=${given}`;
  }, {
    description: "Asks the user",
    input: z.object({ message: z.string() }),
    tags: readOnly,
  }),
  test_elicitation_sep1034_defaults: op(
    async (_input, context) =>
      answered(await ask(context, { message: "Your details", schema: DEFAULTS })),
    { description: "Asks with defaults", tags: readOnly },
  ),
  test_elicitation_sep1330_enums: op(
    async (_input, context) =>
      answered(await ask(context, { message: "Pick options", schema: ENUMS })),
    { description: "Asks with every kind of enum", tags: readOnly },
  ),
  "static-text": op(() => "This is the content of the static text resource.", {
    description: "A text resource",
    tags: readOnly,
  }),
  "static-binary": op(() => new File([PNG], "pixel.png", { type: "image/png" }), {
    description: "A PNG resource",
    output: z.file().mime(["image/png"]),
    tags: readOnly,
  }),
  "watched-resource": op(() => "Watch me", {
    description: "A resource to watch",
    tags: readOnly,
    tools: { updates: "watched-changes" },
  }),
  // The watched resource's changes: none, until the subscription ends.
  "watched-changes": op(async function* (_input, { signal }) {
    await new Promise((resolve) => signal?.addEventListener("abort", resolve, { once: true }));
    yield* [];
  }, { tags: { readOnly: true, streaming: true }, tools: { tool: false, resource: false } }),
  template: api({}, {
    fallback: {
      name: "id",
      subtree: api({
        data: op(({ id }) => ({ id, templateTest: true, data: `Data for ID: ${id}` }), {
          description: "Data by id",
          tags: readOnly,
        }),
      }),
    },
  }),
  // Completes test_prompt_with_arguments' arg1: the words starting with what was typed.
  words: op(
    ({ value }) =>
      ["paris", "park", "party", "test", "testing"].filter((word) => word.startsWith(value)),
    {
      input: z.object({ value: z.string(), arguments: z.record(z.string(), z.string()) }),
      tags: readOnly,
      tools: { tool: false },
    },
  ),
  test_simple_prompt: prompt(() => "This is a simple prompt for testing.", {
    description: "A prompt without arguments",
  }),
  test_prompt_with_arguments: prompt(
    ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
    {
      description: "A prompt with two arguments",
      input: z.object({
        arg1: z.string().describe("First test argument"),
        arg2: z.string().describe("Second test argument"),
      }),
      complete: { arg1: "words" },
    },
  ),
  test_prompt_with_embedded_resource: prompt(({ resourceUri }) => [
    {
      role: "user",
      content: {
        type: "resource",
        resource: {
          uri: resourceUri,
          mimeType: "text/plain",
          text: "Embedded resource content for testing.",
        },
      },
    },
    { role: "user", content: "Please process the embedded resource above." },
  ], {
    description: "A prompt embedding a resource",
    input: z.object({ resourceUri: z.string().describe("URI of the resource to embed") }),
  }),
  test_prompt_with_image: prompt(() => [
    {
      role: "user",
      content: { type: "image", data: new Blob([PNG], { type: "image/png" }) },
    },
    { role: "user", content: "Please analyze the image above." },
  ], { description: "A prompt with an image" }),
  json_schema_2020_12_tool: op(({ name }) => `Hello ${name ?? "you"}`, {
    description: "Tool with JSON Schema 2020-12 features",
    input: contact,
    tags: readOnly,
  }),
  // SEP-2243: the argument mirrored into the `Mcp-Param-Region` header, checked against the body.
  test_custom_header: op(({ region }) => `Region: ${region}`, {
    description: "Reads an argument its client also sends as a header",
    input: z.object({ region: z.string().meta({ "x-mcp-header": "Region" }) }),
    tags: readOnly,
  }),
  // The 2026 revision's rounds (SEP-2322): each question named as the suite expects it.
  test_input_required_result_elicitation: op(async (_input, context) => {
    const { name } = await answerOf(context, {
      key: "user_name",
      message: "What is your name?",
      schema: oneField("name", "string"),
    });
    return `Hello, ${name}!`;
  }, { description: "Asks a name over an input round", tags: readOnly }),
  test_input_required_result_request_state: op(async (_input, context) => {
    const { ok } = await answerOf(context, {
      key: "confirm",
      message: "Please confirm",
      schema: oneField("ok", "boolean"),
    });
    return `state-ok: confirmed=${ok}`;
  }, { description: "Asks over a round with a requestState", tags: readOnly }),
  test_input_required_result_multi_round: op(async (_input, context) => {
    const { name } = await answerOf(context, {
      key: "step1",
      message: "Step 1: What is your name?",
      schema: oneField("name", "string"),
    });
    const { color } = await answerOf(context, {
      key: "step2",
      message: "Step 2: What is your favorite color?",
      schema: oneField("color", "string"),
    });
    return `${name} likes ${color}`;
  }, { description: "Asks over two rounds", tags: readOnly }),
  test_input_required_result_tampered_state: op(async (_input, context) => {
    await answerOf(context, {
      key: "confirm",
      message: "Please confirm",
      schema: oneField("ok", "boolean"),
    });
    return "integrity-ok: state verified";
  }, { description: "Asks over a round whose state must not be forged", tags: readOnly }),
  test_input_required_result_prompt: prompt(async (_input, context) => {
    const { context: given } = await answerOf(context, {
      key: "user_context",
      message: "What context should the prompt use?",
      schema: oneField("context", "string"),
    });
    return `Use this context: ${given}`;
  }, { description: "A prompt that asks before it renders" }),
  // SEP-2575's diagnostic tools. The suite's test_missing_capability needs sampling, which no
  // handler can ask for; this one needs elicitation, the capability a handler can need, so that
  // the -32021 and its HTTP 400 are exercised (the check naming sampling is an expected failure).
  test_missing_capability: op(async (_input, context) => {
    await answerOf(context, { message: "Proceed?", schema: oneField("ok", "boolean") });
    return "Success";
  }, { description: "Needs a capability the client must declare", tags: readOnly }),
  // Its question goes back as a result of the call, never as a request of the server's own.
  test_streaming_elicitation: op(async (_input, context) => {
    progress(context, 50, 100);
    await answerOf(context, { message: "Continue?", schema: oneField("ok", "boolean") });
    return "Streaming complete";
  }, { description: "Reports progress, then asks", tags: readOnly }),
  test_logging_tool: op((_input, context) => {
    log(context, "info", "Diagnostic trace logging activated");
    return "Logging evaluated";
  }, { description: "Logs only where the client set a level", tags: readOnly }),
  // The tasks extension's fixtures (SEP-2663): the task-supporting ones are long-running leaves;
  // those the suite registers with task support "required" say so in meta.tools.task.
  greet: op(({ name }) => `Hello, ${name}!`, {
    description: "Greets at once",
    input: z.object({ name: z.string() }),
    tags: readOnly,
  }),
  // Sleeps on its signal, so that a cancelled task ends at once rather than after its seconds.
  slow_compute: op(async ({ seconds, label }, context) => {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, seconds * 1000);
      context.signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(context.signal?.reason);
      }, { once: true });
    });
    return `Computed ${label ?? "it"} in ${seconds} s`;
  }, {
    description: "Works for some seconds",
    input: z.object({ seconds: z.number().min(0), label: z.string().optional() }),
    tags: { readOnly: true, longRunning: true },
  }),
  failing_job: op(async (): Promise<string> => {
    await sleep(1000);
    throw new HttpError(422, "The job failed");
  }, {
    description: "Fails as a tool",
    tags: { readOnly: true, longRunning: true },
    tools: { task: "required" },
  }),
  protocol_error_job: op((): string => {
    throw new Error("The job crashed");
  }, { description: "Crashes", tags: { readOnly: true, longRunning: true } }),
  confirm_delete: op(async ({ filename }, context) => {
    const { confirm } = await answerOf(context, {
      message: `Delete ${filename}?`,
      schema: oneField("confirm", "boolean"),
    });
    return confirm === true ? `Deleted ${filename}` : `Kept ${filename}`;
  }, {
    description: "Asks before it deletes",
    input: z.object({ filename: z.string() }),
    tags: { readOnly: true, longRunning: true },
  }),
  // The suite answers each of its questions with a name and a confirmation.
  multi_input: op(async (_input, context) => {
    const schema: FormSchema = {
      type: "object",
      properties: { name: { type: "string" }, confirm: { type: "boolean" } },
      required: ["name"],
    };
    const [first, second] = await Promise.all([
      answerOf(context, { key: "first", message: "First?", schema }),
      answerOf(context, { key: "second", message: "Second?", schema }),
    ]);
    return `${first.name} and ${second.name}`;
  }, { description: "Asks two questions at once", tags: { readOnly: true, longRunning: true } }),
  // Its question is asked in an input round before the task is made (askFirst); the task then
  // starts with the answer, which the handler's ask of the same key gets at once.
  test_tool_with_task: op(async (_input, context) => {
    const { name } = await answerOf(context, USER_NAME);
    return `Task done for ${name}`;
  }, {
    description: "Asks, then runs long",
    tags: { readOnly: true, longRunning: true },
    tools: { task: "required", askFirst: [USER_NAME] },
  }),
});

/**
 * The server's options: the suite's resources live under `test://`; input
 * rounds' states are sealed with the first key, as after a rotation.
 */
export const options: McpHandlerOptions = {
  requestStateKeys: [
    "conformance: the key sealing requestState now",
    "conformance: the key it replaced, still opening",
  ],
  name: "ramify-conformance",
  version: "1.0.0",
  warnMissingHints: false,
  onError: () => {},
  resumability: { pollAfterMs: POLL_AFTER_MS, retryMs: 50 },
  resourceScheme: "test",
};
