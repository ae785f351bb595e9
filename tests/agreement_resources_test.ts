// The resource agreement suite: a readOnly leaf read as an MCP resource gives
// the value the same leaf gives as an MCP tool, over REST (the HTTP client,
// and a plain GET of the resource URI's path: a URI and a route name one
// thing) and over GraphQL, with the output schema's stripping applied alike.
// A missing book fails alike too: 404 on every surface.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, HttpError, op } from "@ramify/api/tree";
import { ClientError, createClient } from "@ramify/api/http";
import { createGraphQLClient } from "@ramify/api/graphql";
import { httpTransport } from "@ramify/api/graphql/client";
import { callThrough, mcpCall, type Step } from "./support/agreement.ts";
import { serveEverySurface } from "./support/every_surface.ts";

const SECRET = "hunter2-secret";
const readOnly = { tags: { readOnly: true } } as const;
const Book = z.object({ id: z.string(), title: z.string() });

const tree = api({
  motto: op(() => "Read more", { ...readOnly, output: z.string() }),
  shelf: op(() => ({ count: 2, secret: SECRET }), {
    ...readOnly,
    output: z.object({ count: z.number() }),
  }),
  books: api({}, {
    fallback: {
      name: "bookId",
      subtree: api({
        read: op(({ bookId }) => {
          if (bookId === "gone") throw new HttpError(404, "No such book");
          return { id: String(bookId), title: "Dune", passwordHash: SECRET };
        }, { ...readOnly, output: Book }),
      }),
    },
  }),
});

/** The cases: the steps to a leaf, and the URI of the same leaf as a resource. */
const CASES: [readonly Step[], string][] = [
  [["motto"], "ramify://motto"],
  [["shelf"], "ramify://shelf"],
  [["books", ["bookId", "b1"], "read"], "ramify://books/b1"],
  [["books", ["bookId", "ü b"], "read"], "ramify://books/%C3%BC%20b"],
];

Deno.test("agreement: a resource read gives what the leaf gives as a tool, over REST and GraphQL", async (t) => {
  const surfaces = await serveEverySurface(tree);
  const { base, mcpClient } = surfaces;
  const rest = createClient(tree, { baseUrl: base });
  const graphql = createGraphQLClient(tree, {
    transport: httpTransport({ url: `${base}/graphql` }),
  });
  const tool = mcpCall(mcpClient);
  try {
    for (const [steps, uri] of CASES) {
      await t.step(uri, async () => {
        const { contents } = await mcpClient.readResource({ uri });
        const [content] = contents as { mimeType?: string; text: string }[];
        const read = content.mimeType === "application/json"
          ? JSON.parse(content.text)
          : content.text;
        assert.doesNotMatch(content.text, new RegExp(SECRET));
        assert.deepEqual(await tool(steps), read, "tools/call");
        assert.deepEqual(await callThrough(rest, steps), read, "the HTTP client");
        assert.deepEqual(await callThrough(graphql, steps), read, "GraphQL");
        // The URI's path is the route's.
        const response = await fetch(`${base}/${uri.slice("ramify://".length)}`);
        const body = response.headers.get("content-type")?.includes("json")
          ? await response.json()
          : await response.text();
        assert.deepEqual(body, read, "GET of the URI's path");
      });
    }

    await t.step("a missing book is a 404 everywhere", async () => {
      const steps: Step[] = ["books", ["bookId", "gone"], "read"];
      let resourceError: { message: string } | undefined;
      await mcpClient.readResource({ uri: "ramify://books/gone" }).catch((error) =>
        resourceError = error
      );
      assert.match(resourceError?.message ?? "", /404 Not Found: No such book/);
      await assert.rejects(tool(steps), (error: { status: number }) => error.status === 404);
      await assert.rejects(
        callThrough(rest, steps),
        (error) => error instanceof ClientError && error.status === 404,
      );
      await assert.rejects(callThrough(graphql, steps), /No such book/);
      assert.equal(
        await fetch(`${base}/books/gone`).then(async (response) => {
          await response.body?.cancel();
          return response.status;
        }),
        404,
      );
    });
  } finally {
    await surfaces.close();
  }
});
