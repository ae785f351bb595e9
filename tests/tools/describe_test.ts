// The tool-description projection: names from the tree's own child names,
// schemas as JSON Schema objects with captures required, and the spec's tag
// table as MCP annotations, read from the leaf alone.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { toTools } from "@ramify/api/tools";

// These trees carry the tags each case needs, no more: the warning about
// missing hints has its own test (hints_test.ts).
const quietTools = (tree: Parameters<typeof toTools>[0]) =>
  toTools(tree, { warnMissingHints: false });
const byName = (tree: Parameters<typeof toTools>[0]) =>
  Object.fromEntries(quietTools(tree).map((tool) => [tool.name, tool]));

Deno.test("toTools: every row of the spec's tag table is an annotation", () => {
  const tools = byName(api({
    read: op(() => 1, { tags: { readOnly: true } }),
    put: op(() => 1, { tags: { idempotent: true } }),
    wipe: op(() => 1, { tags: { destructive: true } }),
    fetchUrl: op(() => 1, { tags: { openWorld: true } }),
    plain: op(() => 1),
  }));
  assert.deepEqual(tools.read.annotations, { readOnlyHint: true, idempotentHint: true });
  assert.deepEqual(tools.put.annotations, { idempotentHint: true });
  assert.deepEqual(tools.wipe.annotations, { destructiveHint: true });
  assert.deepEqual(tools.fetchUrl.annotations, { openWorldHint: true });
  assert.deepEqual(tools.plain.annotations, {}, "an unknown tag is left out");
});

Deno.test("toTools: a tag authored false is written false; custom tags are not hints", () => {
  const [tool] = quietTools(api({
    save: op(() => 1, {
      tags: {
        readOnly: false,
        destructive: false,
        openWorld: false,
        idempotent: false,
        audited: true,
      },
    }),
  }));
  assert.deepEqual(tool.annotations, {
    readOnlyHint: false,
    idempotentHint: false,
    destructiveHint: false,
    openWorldHint: false,
  });
});

Deno.test("toTools: tags on a branch never reach its leaves", () => {
  const [tool] = quietTools(api({
    admin: api({ drop: op(() => 1) }, { meta: { tags: { destructive: true, readOnly: false } } }),
  }));
  assert.equal(tool.name, "admin.drop");
  assert.deepEqual(tool.annotations, {});
});

Deno.test("toTools: names are the tree's child names, never the HTTP route or verb", () => {
  const tree = api({
    books: api({
      list: op(() => [], http.get, http.moveTo("..")),
      add: op(() => 1, http.put),
    }),
  });
  assert.deepEqual(quietTools(tree).map((tool) => tool.name), ["books.list", "books.add"]);
});

Deno.test("toTools: a fallback's capture is a required string argument, not a name", () => {
  const tools = byName(api({
    books: api({}, {
      fallback: {
        name: "bookId",
        subtree: api({
          read: op(({ bookId }) => bookId, { input: z.object({ bookId: z.string() }) }),
          rename: op(({ title }) => title, { input: z.object({ title: z.string() }) }),
          notes: api({}, {
            fallback: { name: "noteId", subtree: api({ read: op(() => 1) }) },
          }),
        }),
      },
    }),
  }));
  assert.deepEqual(Object.keys(tools), ["books.read", "books.rename", "books.notes.read"]);
  assert.deepEqual(tools["books.rename"].inputSchema.required, ["title", "bookId"]);
  assert.deepEqual(
    (tools["books.rename"].inputSchema.properties as Record<string, unknown>).bookId,
    { type: "string" },
  );
  assert.deepEqual(tools["books.read"].inputSchema.required, ["bookId"]);
  assert.deepEqual(tools["books.notes.read"].inputSchema, {
    type: "object",
    properties: { bookId: { type: "string" }, noteId: { type: "string" } },
    required: ["bookId", "noteId"],
    additionalProperties: true,
  }, "a leaf without an input schema takes an open object, its captures named");
});

Deno.test("toTools: schemas are JSON Schema; no input schema is an open object, an empty one takes nothing; output only with a schema", () => {
  const tools = byName(api({
    typed: op(({ n }) => ({ twice: n * 2 }), {
      input: z.object({ n: z.number().int() }),
      output: z.object({ twice: z.number() }),
      description: "Doubles n",
    }),
    open: op(() => 1),
    nothing: op(() => 1, { input: z.object({}) }),
    ticks: op(async function* () {
      yield 1;
    }, { tags: { streaming: true }, output: z.number() }),
  }));
  assert.equal(tools.typed.description, "Doubles n");
  assert.equal(tools.typed.inputSchema.type, "object");
  assert.deepEqual(tools.typed.inputSchema.required, ["n"]);
  assert.deepEqual(tools.typed.outputSchema?.properties, { twice: { type: "number" } });
  assert.deepEqual(tools.open.inputSchema, {
    type: "object",
    properties: {},
    required: [],
    additionalProperties: true,
  });
  assert.deepEqual(tools.nothing.inputSchema.properties, {});
  assert.equal(tools.open.outputSchema, undefined);
  assert.equal(tools.open.description, undefined);
  // A stream's items are a list, no object: its structured content is `{ result }`.
  assert.deepEqual(tools.ticks.outputSchema, {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { result: { type: "array", items: { type: "number" } } },
    required: ["result"],
  });
});

Deno.test("toTools: a wrapped output schema's references resolve, its properties named default, enum or const too", () => {
  type Shelf = { default?: Shelf; enum: Shelf[]; const: Shelf | null };
  const Shelf: z.ZodType<Shelf> = z.object({
    get default() {
      return Shelf.optional();
    },
    get enum() {
      return z.array(Shelf);
    },
    get const() {
      return Shelf.nullable();
    },
  });
  // A list is no object: the schema moves to `properties.result`, and its references with it.
  const tools = byName(api({ shelves: op(() => [], { output: z.array(Shelf) }) }));
  const schema = tools.shelves.outputSchema;
  const text = JSON.stringify(schema);
  const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map(([, ref]) => ref);
  assert.ok(refs.length >= 3, text);
  for (const ref of refs) {
    const target = ref.slice(2).split("/").filter((token) => token !== "").map((token) =>
      decodeURIComponent(token).replaceAll("~1", "/").replaceAll("~0", "~")
    ).reduce<unknown>((at, token) => (at as Record<string, unknown>)?.[token], schema);
    assert.equal(typeof target, "object", `${ref} resolves in the schema: ${text}`);
  }
});

Deno.test("toTools: titles read the path; meta.tools overrides name, title and description, or opts out", () => {
  const tools = quietTools(api({
    books: api({
      byAuthor: op(() => [], { description: "By author" }),
      search: op(() => [], {
        tools: { name: "search_books", title: "Search", description: "Finds" },
      }),
      secret: op(() => 1, { tools: false }),
    }),
  }));
  assert.deepEqual(tools.map((t) => [t.name, t.title, t.description]), [
    ["books.byAuthor", "Books: by author", "By author"],
    ["search_books", "Search", "Finds"],
  ]);
});

Deno.test("toTools: names are escaped injectively and stay within MCP's rule", () => {
  const tools = quietTools(api({
    "a.b": op(() => 1),
    a: api({ b: op(() => 2) }),
    "list:all": op(() => 3),
    "snake_case": op(() => 4),
    "x_x2E": op(() => 5),
    "page_10": op(() => 8),
    "é": op(() => 6),
    "kebab-case": op(() => 7),
  }));
  assert.deepEqual(tools.map((tool) => tool.name), [
    "a_x2Eb",
    "a.b",
    "list_x3Aall",
    "snake_case",
    "x_x5Fx2E",
    "page_10",
    "_xC3_xA9",
    "kebab-case",
  ]);
  for (const tool of tools) assert.match(tool.name, /^[A-Za-z0-9._-]{1,128}$/);
});

Deno.test("toTools: two leaves with one name, or a name past MCP's rule, fail naming the leaves", () => {
  assert.throws(
    () =>
      quietTools(api({
        items: api({ list: op(() => 1) }, {
          fallback: { name: "itemId", subtree: api({ list: op(() => 2) }) },
        }),
      })),
    /the leaf at items\/list and the leaf at items\/\{itemId\}\/list both get the tool name "items.list"; give one another with meta.tools.name/,
  );
  assert.throws(
    () => quietTools(api({ a: op(() => 1), b: op(() => 2, { tools: { name: "a" } }) })),
    /the leaf at a and the leaf at b both get the tool name "a"/,
  );
  assert.throws(
    () => quietTools(api({ ["x".repeat(129)]: op(() => 1) })),
    /is not \[A-Za-z0-9._-\] of at most 128 characters/,
  );
  assert.throws(
    () => quietTools(api({ a: op(() => 1, { tools: { name: "has space" } }) })),
    /the tool name of the leaf at a, "has space", is not/,
  );
  assert.equal(quietTools(op(() => 1))[0].name, "root");
});

Deno.test("toTools: a schema with no JSON Schema form fails naming the leaf", () => {
  assert.throws(
    () => quietTools(api({ odd: op(() => 1, { input: z.object({ n: z.bigint() }) }) })),
    /the input schema of the leaf at odd has no JSON Schema form/,
  );
});

Deno.test("toTools: a leaf whose input takes files is no tool (arguments are JSON)", () => {
  const tools = quietTools(api({
    upload: op(({ file }) => file.name, { input: z.object({ file: z.file() }) }),
    uploadMany: op(({ files }) => files.length, { input: z.object({ files: z.array(z.file()) }) }),
    note: op(({ text }) => text, { input: z.object({ text: z.string() }) }),
  }));
  assert.deepEqual(tools.map((tool) => tool.name), ["note"]);
});
