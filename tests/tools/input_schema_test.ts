// Tool input schemas keep every JSON Schema 2020-12 keyword the author wrote
// (SEP-1613, SEP-2106): `allOf`, `if`/`then`/`else`, `$anchor`, `$defs`,
// `dependentRequired`, as `tools/list` shows them to the official SDK client
// in either protocol era. A root that names no type (zod's `.and()` of
// described objects is an `allOf`) is said to be an object, as MCP requires;
// a capture is added as a required string beside the author's keywords.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler, toTools } from "@ramify/api/tools";

/** A JSON Schema written by hand, with the keywords a converter could drop. */
const CONDITIONAL = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: { unit: { $anchor: "unit", type: "string", enum: ["cm", "in"] } },
  properties: {
    kind: { type: "string", enum: ["big", "small"] },
    size: { type: "integer" },
    unit: { $ref: "#unit" },
  },
  allOf: [{ anyOf: [{ required: ["kind"] }, { required: ["size"] }] }],
  if: { properties: { kind: { const: "big" } }, required: ["kind"] },
  then: { required: ["size"] },
  else: { properties: { size: { maximum: 10 } } },
  dependentRequired: { size: ["unit"] },
  additionalProperties: false,
} as const;

/** A Standard Schema whose JSON Schema is the one above; it accepts any object. */
const conditional = {
  "~standard": {
    version: 1,
    vendor: "hand-written",
    validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
    jsonSchema: { input: () => CONDITIONAL, output: () => CONDITIONAL },
  },
} as unknown as StandardSchemaV1<Record<string, unknown>>;

/** zod's `.and()` of two described objects: an `allOf` with no type at its root. */
const both = z.object({ a: z.string() }).meta({ description: "A" })
  .and(z.object({ b: z.number() }).meta({ description: "B" }));

const ALL_OF = [
  { type: "object", properties: { a: { type: "string" } }, required: ["a"], description: "A" },
  { type: "object", properties: { b: { type: "number" } }, required: ["b"], description: "B" },
];

const echo = (input: unknown) => JSON.stringify(input);
const tree = api({
  both: op(echo, { input: both }),
  conditional: op(echo, { input: conditional }),
  shelves: api({}, {
    fallback: {
      name: "shelfId",
      subtree: api({ conditional: op(echo, { input: conditional }) }),
    },
  }),
});

async function listed(era: "legacy" | "modern") {
  const mcp = createMcpHandler(tree, { warnMissingHints: false });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  const client = new Client(
    { name: "test", version: "1.0.0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.addr.port}/mcp`)),
    );
    const { tools } = await client.listTools();
    const called = await client.callTool({ name: "both", arguments: { a: "x", b: 1 } });
    return {
      schemas: Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema])),
      called: (called.content as { text: string }[])[0].text,
    };
  } finally {
    await client.close();
    await mcp.close();
    await server.shutdown();
  }
}

for (const era of ["legacy", "modern"] as const) {
  Deno.test(`input schemas (${era === "legacy" ? "2025" : "2026-07-28"}): tools/list keeps every 2020-12 keyword`, async () => {
    const { schemas, called } = await listed(era);
    assert.deepEqual(schemas.conditional, CONDITIONAL, "the hand-written schema, unchanged");
    assert.deepEqual(schemas.both, {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      allOf: ALL_OF,
    });
    assert.equal(called, JSON.stringify({ a: "x", b: 1 }));
    // The capture joins the author's properties and requirements; nothing else changes.
    assert.deepEqual(schemas["shelves.conditional"], {
      ...CONDITIONAL,
      properties: { ...CONDITIONAL.properties, shelfId: { type: "string" } },
      required: ["shelfId"],
    });
  });
}

Deno.test("toTools: an input schema's root allOf is kept, the root said to be an object", () => {
  const tools = toTools(tree, { warnMissingHints: false });
  const described = tools.find((tool) => tool.name === "both");
  assert.equal(described?.inputSchema.type, "object");
  assert.deepEqual(described?.inputSchema.allOf, ALL_OF);
});
