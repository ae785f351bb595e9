// One description of the tree for every surface: `createHandler` (what
// `serve()` runs) over a tree of N leaves prepares N calls, one per leaf,
// whichever surfaces use them (REST, GraphQL over HTTP and WebSocket, MCP
// tools and resources), and makes one HTTP projection, shared by the router,
// the OpenAPI document and MCP's resource URIs. Counted, not timed.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import type { Node } from "@ramify/api/tree/node";
import { createHandler } from "@ramify/api/serve";
import { timesPrepared } from "../tree/call.ts";
import { timesProjected } from "../route/projection.ts";
import { leavesOf } from "@ramify/api/tree/catalogue";

/** A fresh tree of `n` books leaves (reads, writes, a fallback's), built anew for each count. */
function treeOf(n: number): { tree: Node; leaves: number } {
  const children: Record<string, Node> = {};
  for (let i = 0; i < n; i++) {
    children[`list${i}`] = op(() => [i], { tags: { readOnly: true } });
    children[`add${i}`] = op(({ title }: { title: string }) => ({ title }), {
      input: z.object({ title: z.string() }),
    });
  }
  const tree = api({
    books: api(children, {
      fallback: {
        name: "bookId",
        subtree: api({
          read: op(({ bookId }) => ({ bookId }), { tags: { readOnly: true } }),
          remove: op(() => undefined, { tags: { destructive: true } }),
        }),
      },
    }),
  });
  return { tree, leaves: 2 * n + 2 };
}

Deno.test("architecture: serve over N leaves prepares N calls and makes one HTTP projection", async () => {
  for (const n of [3, 25]) {
    const { tree, leaves } = treeOf(n);
    const handler = await createHandler(tree, { docs: false });
    try {
      // Every surface is reached once: its calls are prepared now at the latest.
      const answers: number[] = [];
      for (const path of ["/books/list0", "/books/b1", "/openapi.json"]) {
        const response = await handler.fetch(new Request(`http://localhost${path}`));
        answers.push(response!.status);
        await response!.body?.cancel();
      }
      const graphql = await handler.fetch(
        new Request("http://localhost/graphql", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: '{ books { list0 read(bookId: "b1") } }' }),
        }),
      );
      answers.push(graphql!.status);
      await graphql!.body?.cancel();
      assert.deepEqual(answers, [200, 200, 200, 200]);
      const entries = leavesOf(tree);
      assert.equal(entries.length, leaves);
      assert.deepEqual(
        entries.map((entry) => [entry.label, timesPrepared(entry.leaf)]),
        entries.map((entry) => [entry.label, 1]),
        "each leaf prepared once",
      );
      assert.equal(timesProjected(tree), 1, "one HTTP projection");
    } finally {
      await handler.close();
    }
  }
});
