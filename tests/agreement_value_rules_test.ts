// The agreement suite, part six: the value rules the tree decides once for
// every surface. A property whose schema is named (`.meta({ id })`, a `$ref`
// in its JSON Schema) is read from strings as its type says (a query, a
// form, a flag); a `Blob` is a file for an output schema of bytes; a file
// input allowed several media types is `File!` in GraphQL; media types
// compare by essence (a part sent as `text/plain;charset=utf-8` passes
// `.mime(["text/plain"])`); and MCP's structured content has one shape for
// named and unnamed output schemas, on a 2025 and a 2026-07-28 client alike.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createClient } from "@ramify/api/http";
import { createGraphQLClient, toSDL } from "@ramify/api/graphql";
import { httpTransport } from "@ramify/api/graphql/client";
import { createMcpHandler } from "@ramify/api/tools";
import { Client as McpClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { callThrough, type Step } from "./support/agreement.ts";
import { serveEverySurface } from "./support/every_surface.ts";
import { cliFlagsCall, mcpValueCall, rawHttpCall, seen } from "./support/values.ts";

/** One surface: a name and how it calls a leaf (its answer as the table compares it). */
interface Surface {
  readonly name: string;
  call(steps: readonly Step[], input?: Record<string, unknown>): Promise<unknown>;
}

/** The surfaces every case of a tree goes through: raw HTTP, the typed client, MCP, the command line. */
async function everySurface(
  tree: Parameters<typeof serveEverySurface>[0],
  body: (surfaces: readonly Surface[], served: { base: string }) => Promise<void>,
): Promise<void> {
  const faults: unknown[] = [];
  const onError = (error: unknown) => void faults.push(error);
  const served = await serveEverySurface(tree, {
    onError: { rest: onError, graphql: onError, mcp: onError },
  });
  const { base, mcpClient } = served;
  try {
    const cli = (url?: string) => (steps: readonly Step[], input: Record<string, unknown> = {}) =>
      cliFlagsCall(tree, url)(steps, input, "json");
    await body([
      { name: "raw HTTP, JSON bodies", call: rawHttpCall(base, tree, "json") },
      { name: "raw HTTP, urlencoded bodies", call: rawHttpCall(base, tree, "urlencoded") },
      { name: "raw HTTP, multipart bodies", call: rawHttpCall(base, tree, "multipart") },
      {
        name: "HTTP client",
        call: (steps, input) =>
          Promise.resolve(callThrough(createClient(tree, { baseUrl: base }), steps, input)).then(
            seen,
          ),
      },
      { name: "MCP client", call: (steps, input) => mcpValueCall(mcpClient)(steps, input, true) },
      { name: "command line, in process", call: cli() },
      { name: "command line, against the server (--url)", call: cli(base) },
    ], { base });
    assert.deepEqual(faults, [], "no fault on any surface");
  } finally {
    await served.close();
  }
}

Deno.test("agreement: a property with a named schema is read from strings as its type says", async (t) => {
  const Page = z.number().int().min(1).meta({ id: "Page" });
  const Paging = z.object({ page: Page, pages: z.array(Page) });
  const echo = ({ page, pages }: z.output<typeof Paging>) => ({ page, next: page + 1, pages });
  const Echo = z.object({ page: z.number(), next: z.number(), pages: z.array(z.number()) });
  const tree = api({
    // A GET: the query; a POST: a JSON, urlencoded or multipart body.
    query: op(echo, http.get, { input: Paging, output: Echo }),
    form: op(echo, { input: Paging, output: Echo, tags: { destructive: false } }),
    // The whole input named: its properties sit behind a `$ref` too.
    whole: op(echo, http.get, { input: Paging.meta({ id: "Paging" }), output: Echo }),
  });
  const input = { page: 2, pages: [3, 4] };
  const expected = { page: 2, next: 3, pages: [3, 4] };
  await everySurface(tree, async (surfaces) => {
    for (const surface of surfaces) {
      await t.step(surface.name, async () => {
        for (const leaf of ["query", "form", "whole"]) {
          assert.deepEqual(await surface.call([leaf], input), expected, `${surface.name}: ${leaf}`);
        }
      });
    }
  });
});

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13]);

Deno.test("agreement: a Blob is a file to an output schema of files, its media type by essence", async (t) => {
  const tree = api({
    // GraphQL has no bytes: these leaves are kept off it (see agreement_values_test.ts).
    blob: op(() => new Blob([PNG], { type: "image/png" }), http.get, {
      output: z.file(),
      graphql: false,
    }),
    png: op(() => new Blob([PNG], { type: "image/png" }), http.get, {
      output: z.file().mime(["image/png"]),
      graphql: false,
    }),
    // The handler's own media type goes out whole; the check reads its essence.
    note: op(() => new Blob(["hi"], { type: "text/plain;charset=utf-8" }), http.get, {
      output: z.file().mime(["text/plain"]),
      graphql: false,
    }),
  });
  const png = { type: "image/png", bytes: [...PNG] };
  const note = { type: "text/plain;charset=utf-8", bytes: [...new TextEncoder().encode("hi")] };
  const faults: unknown[] = [];
  const served = await serveEverySurface(tree, {
    onError: { rest: (error) => void faults.push(error), mcp: (error) => void faults.push(error) },
  });
  try {
    const surfaces: Surface[] = [
      { name: "raw HTTP", call: rawHttpCall(served.base, tree, "json") },
      {
        name: "HTTP client",
        call: (steps, input) =>
          Promise.resolve(callThrough(createClient(tree, { baseUrl: served.base }), steps, input))
            .then(seen),
      },
      { name: "MCP client", call: (steps) => mcpValueCall(served.mcpClient)(steps) },
    ];
    for (const surface of surfaces) {
      await t.step(surface.name, async () => {
        assert.deepEqual(await surface.call(["blob"]), png, `${surface.name}: z.file()`);
        assert.deepEqual(await surface.call(["png"]), png, `${surface.name}: .mime()`);
        assert.deepEqual(await surface.call(["note"]), note, `${surface.name}: a charset`);
      });
    }
    await t.step("command line (bytes written, no media type)", async () => {
      for (const url of [undefined, served.base]) {
        const call = cliFlagsCall(tree, url);
        assert.deepEqual(await call(["blob"], {}, "bytes"), { bytes: png.bytes });
        assert.deepEqual(await call(["note"], {}, "bytes"), { bytes: note.bytes });
      }
    });
    assert.deepEqual(faults, [], "no fault");
  } finally {
    await served.close();
  }
});

Deno.test("agreement: files by their media type's essence, and a file allowed two types is File! in GraphQL", async (t) => {
  const described = ({ file }: { file: File }) => ({
    name: file.name,
    type: file.type,
    size: file.size,
  });
  const tree = api({
    upload: op(described, {
      input: z.object({ file: z.file().mime(["image/png", "text/plain"]) }),
      tags: { destructive: false },
    }),
    text: op(described, {
      input: z.object({ file: z.file().mime(["text/plain"]) }),
      tags: { destructive: false },
    }),
  });
  const sdl = toSDL(tree);
  assert.match(sdl, /upload\(file: File!\): JSON/, "two media types: File!");
  assert.match(sdl, /text\(file: File!\): JSON/, "one media type: File!");
  const hi = new TextEncoder().encode("hi");
  const cases = [
    { steps: ["upload"], file: new File([PNG], "dot.png", { type: "image/png" }) },
    { steps: ["upload"], file: new File([hi], "note.txt", { type: "text/plain" }) },
    // Bun's parser gives a text part this type; Deno's and Node's give text/plain.
    { steps: ["text"], file: new File([hi], "note.txt", { type: "text/plain;charset=utf-8" }) },
    { steps: ["text"], file: new File([hi], "note.txt", { type: "TEXT/Plain" }) },
  ];
  const expected = (file: File) => ({
    name: file.name,
    type: file.name.endsWith(".png") ? "image/png" : "text/plain",
    size: file.size,
  });
  const faults: unknown[] = [];
  const onError = (error: unknown) => void faults.push(error);
  const served = await serveEverySurface(tree, {
    onError: { rest: onError, graphql: onError, mcp: onError },
  });
  const { base, generated, mcpClient } = served;
  try {
    const through =
      (client: unknown) => (steps: readonly Step[], input?: Record<string, unknown>) =>
        Promise.resolve(callThrough(client, steps, input));
    const surfaces: Surface[] = [
      { name: "raw HTTP, a multipart body", call: rawHttpCall(base, tree, "multipart") },
      { name: "HTTP client", call: through(createClient(tree, { baseUrl: base })) },
      {
        name: "GraphQL client over HTTP (multipart)",
        call: through(
          createGraphQLClient(tree, { transport: httpTransport({ url: `${base}/graphql` }) }),
        ),
      },
      {
        name: "generated GraphQL client over HTTP (multipart)",
        call: through(generated.createClient(generated.httpTransport(`${base}/graphql`))),
      },
      // The command line names a file by its path: its extension gives the media type.
      {
        name: "command line, in process",
        call: (steps, input = {}) => cliFlagsCall(tree)(steps, input, "json"),
      },
      {
        name: "command line, against the server (--url)",
        call: (steps, input = {}) => cliFlagsCall(tree, base)(steps, input, "json"),
      },
    ];
    for (const surface of surfaces) {
      await t.step(surface.name, async () => {
        for (const { steps, file } of cases) {
          const where = `${surface.name}: ${steps[0]} with ${file.type}`;
          assert.deepEqual(await surface.call(steps, { file }), expected(file), where);
        }
      });
    }
    await t.step("MCP: a leaf that takes files is no tool (tool arguments are JSON)", async () => {
      const names = (await mcpClient.listTools()).tools.map((tool) => tool.name);
      assert.deepEqual(names.filter((name) => name === "upload" || name === "text"), []);
    });
    assert.deepEqual(faults, [], "no fault");
  } finally {
    await served.close();
  }
});

Deno.test("agreement: MCP structured content has one shape for named and unnamed schemas, in both eras", async (t) => {
  const Point = z.object({ x: z.number(), y: z.number() });
  const point = () => ({ x: 1, y: 2 });
  const read = { tags: { readOnly: true } } as const;
  const tree = api({
    pointNamed: op(point, { ...read, output: Point.meta({ id: "Point" }) }),
    pointPlain: op(point, { ...read, output: Point }),
    eitherNamed: op(point, {
      ...read,
      output: z.union([Point, z.object({ r: z.number() })]).meta({ id: "Shape" }),
    }),
    eitherPlain: op(point, { ...read, output: z.union([Point, z.object({ r: z.number() })]) }),
    countNamed: op(() => 3, { ...read, output: z.number().meta({ id: "Count" }) }),
    countPlain: op(() => 3, { ...read, output: z.number() }),
    listNamed: op(() => [point()], { ...read, output: z.array(Point).meta({ id: "Points" }) }),
    listPlain: op(() => [point()], { ...read, output: z.array(Point) }),
    maybeNamed: op(point, { ...read, output: Point.nullable().meta({ id: "MaybePoint" }) }),
    maybePlain: op(point, { ...read, output: Point.nullable() }),
  });
  // An object schema is not wrapped; anything else (a nullable object too) is `{ result }`.
  const expected: Record<string, unknown> = {
    point: point(),
    either: point(),
    count: { result: 3 },
    list: { result: [point()] },
    maybe: { result: point() },
  };
  const mcp = createMcpHandler(tree, { warnMissingHints: false });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  const url = new URL(`http://127.0.0.1:${server.addr.port}/mcp`);
  const seenBy: Record<string, unknown> = {};
  try {
    for (const era of ["2025", "2026-07-28"] as const) {
      await t.step(`a ${era} client`, async () => {
        const client = new McpClient(
          { name: "agreement", version: "1.0.0" },
          era === "2025" ? {} : { versionNegotiation: { mode: { pin: "2026-07-28" } } },
        );
        await client.connect(new StreamableHTTPClientTransport(url));
        try {
          const { tools } = await client.listTools();
          const schemas = Object.fromEntries(tools.map((tool) => [tool.name, tool.outputSchema]));
          for (const [kind, value] of Object.entries(expected)) {
            for (const name of [`${kind}Named`, `${kind}Plain`]) {
              const result = await client.callTool({ name, arguments: {} });
              assert.deepEqual(result.structuredContent, value, `${era}: ${name}`);
              // The advertised schema says what comes: an object, `result` where wrapped.
              const schema = schemas[name] as Record<string, unknown>;
              assert.equal(schema.type, "object", `${era}: ${name}'s outputSchema`);
              const wrapped = isPlainObject(value) && Object.keys(value).join() === "result";
              assert.equal(
                (schema.required as string[] | undefined)?.includes("result") === true,
                wrapped,
                `${era}: ${name}'s outputSchema wraps as its content does`,
              );
            }
          }
          seenBy[era] = schemas;
        } finally {
          await client.close();
        }
      });
    }
    assert.deepEqual(seenBy["2025"], seenBy["2026-07-28"], "one outputSchema for both eras");
  } finally {
    await mcp.close();
    await server.shutdown();
  }
});

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
