// `completion/complete` end to end with the SDK's client, in both protocol
// eras: a template variable from the `enum` its schema gives, from the
// completer leaf `meta.tools.complete` names (called through the call path
// with `{ value, arguments }`), filtered by prefix and cut at 100 with the
// total; a prompt's argument through the prompts' completer; and the
// mistakes: an unknown template or variable, a completer returning no list
// of strings, an overlong value.
import { refused } from "../support/mcp_wire.ts";
import assert from "node:assert/strict";
import { z } from "zod";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { api } from "@ramify/api/tree";
import { createMcpHandler, prompt } from "@ramify/api/tools";
import { context, seen, tree } from "./resources_tree.ts";

const withPrompt = api({
  ...tree.children,
  weather: prompt(({ city }) => `The weather in ${city}?`, {
    input: z.object({ city: z.enum(["paris", "park", "party", "rome"]) }),
  }),
}, { fallback: tree.fallback });

for (const era of ["legacy", "modern"] as const) {
  Deno.test(`MCP completion (${era})`, async (t) => {
    const crashes: unknown[] = [];
    const mcp = createMcpHandler(withPrompt, {
      context,
      warnMissingHints: false,
      onError: (error) => crashes.push(error),
    });
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
    const client = new Client(
      { name: "test", version: "1.0.0" },
      era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.addr.port}/mcp`)),
    );
    const complete = (uri: string, name: string, value: string, args?: Record<string, string>) =>
      client.complete({
        ref: { type: "ref/resource", uri },
        argument: { name, value },
        ...(args === undefined ? {} : { context: { arguments: args } }),
      });
    try {
      await t.step("a variable's enum, filtered by the typed prefix", async () => {
        const template = "ramify://books/{bookId}/formats/{format}";
        assert.deepEqual((await complete(template, "format", "")).completion, {
          values: ["pdf", "epub", "mobi"],
          total: 3,
          hasMore: false,
        });
        assert.deepEqual((await complete(template, "format", "e")).completion.values, ["epub"]);
      });

      await t.step("the completer leaf is told the value and the other arguments", async () => {
        seen.length = 0;
        const { completion } = await complete("ramify://books/{bookId}", "bookId", "b1", {
          other: "x",
        });
        assert.deepEqual(seen, [{ value: "b1", arguments: { other: "x" } }]);
        // b1, b10-b19, b100-b150
        assert.equal(completion.total, 62);
        assert.equal(completion.hasMore, false);
        assert.deepEqual(completion.values.slice(0, 3), ["b1", "b10", "b11"]);
      });

      await t.step("at most 100 values, with the total and hasMore", async () => {
        const { completion } = await complete("ramify://books/{bookId}", "bookId", "");
        assert.equal(completion.values.length, 100);
        assert.equal(completion.total, 150);
        assert.equal(completion.hasMore, true);
      });

      await t.step("a variable with neither has no candidates", async () => {
        assert.deepEqual((await complete("ramify://echo/{value}", "value", "a")).completion, {
          values: [],
          total: 0,
          hasMore: false,
        });
      });

      await t.step("a prompt's argument, by the prompts' completer", async () => {
        const { completion } = await client.complete({
          ref: { type: "ref/prompt", name: "weather" },
          argument: { name: "city", value: "par" },
        });
        assert.deepEqual(completion.values, ["paris", "park", "party"]);
      });

      await t.step("mistakes are -32602", async () => {
        const cases = [
          complete("ramify://nowhere/{x}", "x", ""),
          complete("ramify://books/{bookId}", "format", ""),
          complete("ramify://about", "x", ""),
          complete("ramify://books/{bookId}", "bookId", "b".repeat(10_240)),
          client.complete({
            ref: { type: "ref/prompt", name: "nowhere" },
            argument: { name: "city", value: "" },
          }),
        ];
        for (const call of cases) assert.equal((await refused(call)).code, -32602);
      });

      await t.step("a completer returning no list of strings is a masked fault", async () => {
        crashes.length = 0;
        const error = await refused(
          complete("ramify://books/{bookId}/formats/{format}", "bookId", ""),
        );
        assert.equal(error.code, -32603);
        assert.match(error.message, /500 Internal Server Error/);
        assert.equal(crashes.length, 1);
      });
    } finally {
      await client.close();
      await mcp.close();
      await server.shutdown();
    }
  });
}
