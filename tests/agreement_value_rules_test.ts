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
