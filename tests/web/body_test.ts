// The one default body bound (web/body.ts MAX_BODY_BYTES, 1 MiB): REST,
// GraphQL over HTTP and MCP take a body at it and refuse one past it (413),
// and no other library file writes the figure down as a body default.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";
import { createHttpGraphQLServer } from "@ramify/api/graphql";
import { createMcpHandler } from "@ramify/api/tools";
import { MAX_BODY_BYTES } from "../../web/body.ts";
import { sourcesUnder } from "../support/sources.ts";
import { LIBRARY_DIRS } from "../../scripts/npm_build/shared.ts";
import { INITIALIZE } from "../support/mcp_wire.ts";

const tree = api({ size: op((input: { pad?: string }) => input.pad?.length ?? 0) });

/** A JSON text of exactly `bytes` bytes: `body` with a `pad` string that fills it. */
function sized(bytes: number, body: (pad: string) => unknown): string {
  const bare = JSON.stringify(body("")).length;
  return JSON.stringify(body("x".repeat(bytes - bare)));
}

Deno.test("MAX_BODY_BYTES: REST, GraphQL over HTTP and MCP take a body at it, and refuse one past it", async () => {
  assert.equal(MAX_BODY_BYTES, 1024 * 1024);
  const graphql = createHttpGraphQLServer(tree);
  const mcp = createMcpHandler(tree);
  const json = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const surfaces: [string, (request: Request) => Promise<Response>, (pad: string) => unknown][] = [
    ["REST", createFetch(tree), (pad) => ({ pad })],
    ["GraphQL", graphql, (pad) => ({ query: "{ size }", extensions: { pad } })],
    ["MCP", mcp, (pad) => ({ ...INITIALIZE, params: { ...INITIALIZE.params, pad } })],
  ];
  try {
    for (const [name, handler, body] of surfaces) {
      const path = name === "REST" ? "/size" : name === "GraphQL" ? "/graphql" : "/mcp";
      for (const bytes of [MAX_BODY_BYTES, MAX_BODY_BYTES + 1]) {
        const text = sized(bytes, body);
        assert.equal(new TextEncoder().encode(text).length, bytes);
        const response = await handler(
          new Request(`http://localhost${path}`, { method: "POST", headers: json, body: text }),
        );
        await response.body?.cancel();
        const refused = response.status === 413;
        assert.equal(
          refused,
          bytes > MAX_BODY_BYTES,
          `${name}: ${bytes} bytes, ${response.status}`,
        );
      }
    }
  } finally {
    await mcp.close();
  }
});

Deno.test("MAX_BODY_BYTES: the default body bound is written once", async () => {
  const sources = await sourcesUnder(["mod.ts", ...LIBRARY_DIRS]);
  assert.ok(sources.size > 100, "the library was read");
  const spelled = /(?<![\d_]\s*\*\s*)\b(?:1024\s*\*\s*1024|1_?048_?576)\b/;
  const offences = [...sources]
    .filter(([path, text]) =>
      path !== "web/body.ts" &&
      text.split("\n").some((line) =>
        // Code, not a doc's example: a comment may say what a value is.
        !/^\s*(?:\*|\/\/)/.test(line) &&
        /maxBodyBytes|MAX_BODY_BYTES|maxBytes/.test(line) && spelled.test(line)
      )
    )
    .map(([path]) => path);
  assert.deepEqual(offences, []);
});
