// The one walk of a tree to its leaves, and the one way to name a leaf.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { labelOf, leavesOf } from "@ramify/api/tree/catalogue";

Deno.test("leavesOf: every leaf in tree order with its steps, names and captures", () => {
  const tree = api({
    ping: op(() => "pong"),
    books: api({
      list: op(() => []),
    }, {
      fallback: {
        name: "bookId",
        subtree: api({
          read: op(() => null),
          reviews: api({}, { fallback: { name: "reviewId", subtree: op(() => null) } }),
        }),
      },
    }),
  });
  const entries = leavesOf(tree);
  assert.deepEqual(entries.map((entry) => [entry.label, entry.names, entry.captures]), [
    ["ping", ["ping"], []],
    ["books/list", ["books", "list"], []],
    ["books/{bookId}/read", ["books", "read"], ["bookId"]],
    ["books/{bookId}/reviews/{reviewId}", ["books", "reviews"], ["bookId", "reviewId"]],
  ]);
  assert.equal(entries[0].leaf, tree.children.ping);
});

Deno.test("leavesOf: a node with a handler and children is a leaf before its children; a lone leaf is the root", () => {
  const both = { handler: () => 1, children: { child: op(() => 2) } };
  assert.deepEqual(leavesOf(both).map((entry) => entry.label), ["(root)", "child"]);
  assert.deepEqual(leavesOf(api({})), []);
  assert.equal(labelOf([]), "(root)");
});
