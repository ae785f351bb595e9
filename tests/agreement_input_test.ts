// The agreement suite of the specification's input model: a leaf without an
// input schema receives path captures, query and JSON body merged into one
// object (a capture over the body over the query, own keys only), on every
// surface and client, with every body limit; a leaf declaring an empty input
// schema takes nothing, and has no arguments anywhere.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createCall } from "@ramify/api/tree/catalogue";
import { createClient, toOpenApi } from "@ramify/api/http";
import { createGraphQLClient, toSDL } from "@ramify/api/graphql";
import { httpTransport, wsTransport } from "@ramify/api/graphql/client";
import { toTools } from "@ramify/api/tools";
import { runCli } from "@ramify/api/cli";
import {
  callThrough,
  cliCall,
  leafAt,
  mcpCall,
  openapiCall,
  type Step,
} from "./support/agreement.ts";
import { serveEverySurface } from "./support/every_surface.ts";
import { memoryIo } from "./support/cli_io.ts";

const echo = (input: Record<string, unknown>) => ({ got: input });
const tree = api({
  notes: api({
    add: op(echo),
    find: op(echo, { tags: { readOnly: true } }),
    nothing: op(() => ({ got: "nothing" }), { input: z.object({}) }),
  }, { fallback: { name: "noteId", subtree: api({ pin: op(echo) }) } }),
});

interface Case {
  readonly name: string;
  readonly steps: readonly Step[];
  readonly input?: Record<string, unknown>;
  readonly expect: unknown;
  /** What the MCP client gets, where the SDK differs. */
  readonly mcp?: unknown;
}

const CASES: readonly Case[] = [
  {
    name: "named values reach the handler as sent",
    steps: ["notes", "add"],
    input: { title: "Dune", pages: 412, tags: ["a", "b"], by: { name: "Herbert" } },
    expect: { got: { title: "Dune", pages: 412, tags: ["a", "b"], by: { name: "Herbert" } } },
  },
  {
    name: "nothing sent is an empty object",
    steps: ["notes", "add"],
    expect: { got: {} },
  },
  {
    name: "a read's values (strings, as a query carries them)",
    steps: ["notes", "find"],
    input: { q: "dune", sort: "title" },
    expect: { got: { q: "dune", sort: "title" } },
  },
  {
    name: "the capture wins over a value of its name",
    steps: ["notes", ["noteId", "7"], "pin"],
    input: { noteId: "9", color: "red" },
    expect: { got: { noteId: "7", color: "red" } },
  },
  {
    name: "a __proto__ key is an own key, never a prototype",
    steps: ["notes", "add"],
    input: JSON.parse('{"__proto__":{"polluted":true},"a":1}'),
    expect: { got: JSON.parse('{"__proto__":{"polluted":true},"a":1}') },
    // The MCP SDK validates a request's arguments with zod, whose records set
    // keys by assignment: `__proto__` is dropped there, before ramify sees it.
    mcp: { got: { a: 1 } },
  },
  {
    name: "an empty input schema takes nothing",
    steps: ["notes", "nothing"],
    expect: { got: "nothing" },
  },
];

type Call = (steps: readonly Step[], input?: Record<string, unknown>) => Promise<unknown>;

Deno.test("agreement: a leaf without an input schema gets the merged input on every surface and client", async (t) => {
  const { base, mcpClient, socket, generated, close } = await serveEverySurface(tree);
  try {
    const surfaces: [string, Call, { strings?: boolean }?][] = [
      ["call path", (steps, input) => {
        const { node, captures } = leafAt(tree, steps);
        return Promise.resolve(createCall(node)({ ...input, ...captures }, {}));
      }],
      [
        "HTTP client",
        (steps, input) => callThrough(createClient(tree, { baseUrl: base }), steps, input),
      ],
      ["openapi-fetch over the served document", openapiCall(base, tree)],
      ["GraphQL client over HTTP", (steps, input) =>
        callThrough(
          createGraphQLClient(tree, { transport: httpTransport({ url: `${base}/graphql` }) }),
          steps,
          input,
        )],
      [
        "GraphQL client over WebSocket",
        (steps, input) =>
          callThrough(createGraphQLClient(tree, { transport: wsTransport(socket) }), steps, input),
      ],
      ["generated GraphQL client", (steps, input) =>
        callThrough(
          generated.createClient(generated.httpTransport(`${base}/graphql`)),
          steps,
          input,
        )],
      ["MCP client over Streamable HTTP", mcpCall(mcpClient)],
      ["command line, in process", cliCall(tree)],
      ["command line, against the server", cliCall(tree, base)],
    ];
    for (const [name, call] of surfaces) {
      await t.step(name, async () => {
        for (const test of CASES) {
          const got = await call(test.steps, test.input);
          const expected = name.startsWith("MCP") && "mcp" in test ? test.mcp : test.expect;
          assert.deepEqual(got, expected, `${name}: ${test.name}`);
          const inner = (got as { got: unknown }).got;
          if (typeof inner === "object" && inner !== null) {
            assert.equal(Object.getPrototypeOf(inner), Object.prototype, `${name}: ${test.name}`);
          }
        }
      });
    }

    await t.step("REST merges all three origins: capture over body over query", async () => {
      const response = await fetch(`${base}/notes/7/pin?noteId=q&color=q&size=q`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ noteId: "b", color: "b" }),
      });
      assert.deepEqual(await response.json(), { got: { noteId: "7", color: "b", size: "q" } });
    });

    await t.step("a malformed or oversized body is refused on every HTTP surface", async () => {
      const post = (path: string, body: string) =>
        fetch(`${base}${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body,
        });
      const huge = JSON.stringify({ a: "x".repeat(5 * 1024 * 1024) });
      const answers: [string, number, number][] = [];
      for (
        const [surface, path] of [["REST", "/notes/add"], ["GraphQL", "/graphql"], ["MCP", "/mcp"]]
      ) {
        const malformed = await post(path, "{not json");
        const oversized = await post(path, huge);
        answers.push([surface, malformed.status, oversized.status]);
        await malformed.body?.cancel();
        await oversized.body?.cancel();
      }
      assert.deepEqual(answers, [["REST", 400, 413], ["GraphQL", 400, 413], ["MCP", 400, 413]]);
      // A leaf that takes nothing reads nothing: its body goes unread, whatever it holds.
      const unread = await post("/notes/nothing", "{not json");
      assert.deepEqual([unread.status, await unread.json()], [200, { got: "nothing" }]);
      // The server is alive after each.
      assert.deepEqual(await callThrough(createClient(tree, { baseUrl: base }), ["notes", "add"]), {
        got: {},
      });
    });
  } finally {
    await close();
  }
});

Deno.test("agreement: an empty input schema has no arguments anywhere; no schema is documented as free-form", async () => {
  const sdl = toSDL(tree);
  assert.match(sdl, /^ {2}notesNothing: JSON$/m, "GraphQL: no argument");
  assert.match(sdl, /^ {2}notesAdd\(\n(?: {4}.*\n)+ {4}input: JSON\n {2}\): JSON$/m);
  const tools = Object.fromEntries(toTools(tree).map((tool) => [tool.name, tool]));
  assert.deepEqual(tools["notes.nothing"].inputSchema.properties, {}, "MCP: no argument");
  assert.equal(tools["notes.add"].inputSchema.additionalProperties, true, "MCP: an open object");
  const doc = await toOpenApi(tree);
  const nothing = doc.paths["/notes/nothing"].post;
  assert.equal(nothing.requestBody, undefined, "OpenAPI: no body");
  assert.equal(nothing.parameters, undefined, "OpenAPI: no parameter");
  assert.ok(doc.paths["/notes/add"].post.requestBody !== undefined, "OpenAPI: an open body");
  const io = memoryIo();
  const code = await runCli(tree, ["notes", "nothing", "--a", "1"], { io });
  assert.deepEqual([code, io.stderr.join("")], [
    2,
    'error: unknown flag --a; "notes nothing" takes no input\n',
  ]);
});
