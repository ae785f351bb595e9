import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import type { Node } from "@ramify/api/tree/node";
import {
  mapNodes,
  standardTags,
  tagConflict,
  tagsOf,
  withImplications,
} from "@ramify/api/tree/tags";
import { http } from "@ramify/api/http/verbs";

Deno.test("standard tags: the six, with readOnly implying idempotent", () => {
  assert.deepEqual(Object.keys(standardTags), [
    "readOnly",
    "idempotent",
    "destructive",
    "openWorld",
    "streaming",
    "longRunning",
  ]);
  assert.deepEqual(standardTags.readOnly.implies, { idempotent: true });
  assert.deepEqual(standardTags.readOnly.excludes, ["destructive"]);
  assert.deepEqual(standardTags.destructive.excludes, ["readOnly"]);
  // A task holds one result: a stream cannot be one.
  assert.equal(
    tagConflict({ longRunning: true, streaming: true }),
    "streaming and longRunning exclude each other",
  );
});

Deno.test("implication: readOnly asserts idempotent; nothing else is implied", () => {
  assert.deepEqual(withImplications({ readOnly: true }), { readOnly: true, idempotent: true });
  assert.deepEqual(withImplications({ readOnly: false }), { readOnly: false });
  assert.deepEqual(withImplications({ idempotent: true }), { idempotent: true });
  assert.deepEqual(withImplications({ destructive: true }), { destructive: true });
  assert.deepEqual(withImplications(undefined), {});
  assert.deepEqual(withImplications({ custom: true }), { custom: true });
});

Deno.test("tagsOf: reads the node's own tags with implications", () => {
  const leaf = op(() => 1, http.get);
  assert.deepEqual(tagsOf(leaf), { readOnly: true, idempotent: true });
  assert.deepEqual(tagsOf(op(() => 1)), {});
});

Deno.test("tags are never inherited from ancestors", () => {
  const leaf = op(() => 1);
  const tree = api({ inner: api({ leaf }) }, {
    meta: { tags: { readOnly: true, openWorld: true } },
  });
  assert.deepEqual(tagsOf(tree), { readOnly: true, idempotent: true, openWorld: true });
  assert.deepEqual(tagsOf(tree.children.inner), {});
  assert.deepEqual(tagsOf(tree.children.inner.children.leaf), {});
});

Deno.test("tagConflict: readOnly with destructive, readOnly with idempotent: false", () => {
  assert.match(tagConflict({ readOnly: true, destructive: true })!, /readOnly and destructive/);
  assert.match(tagConflict({ readOnly: true, idempotent: false })!, /readOnly implies idempotent/);
  assert.equal(tagConflict({ readOnly: true, destructive: false }), undefined);
  assert.equal(tagConflict({ destructive: true, idempotent: true }), undefined);
  assert.equal(tagConflict(undefined), undefined);
});

Deno.test("mapNodes: visits pre-order, a node before its children and fallback", () => {
  const tree = api({
    books: api({ list: op(() => []), add: op(() => 1) }, {
      fallback: { name: "bookId", subtree: api({ read: op(() => 2) }) },
    }),
    ping: op(() => "pong"),
  });
  const seen: string[] = [];
  const result = mapNodes(tree, (node, path) => {
    seen.push(path.join("/"));
    return node;
  });
  assert.deepEqual(seen, [
    "",
    "books",
    "books/list",
    "books/add",
    "books/{bookId}",
    "books/{bookId}/read",
    "ping",
  ]);
  assert.equal(result, tree, "an unchanged tree is returned as is");
});

Deno.test("mapNodes: builds a new tree, shares unchanged subtrees, leaves input alone", () => {
  const untouched = api({ a: op(() => 1) });
  const target = op(() => 2);
  const tree = api({ untouched, sub: api({ target }) }, {
    fallback: { name: "id", subtree: api({ deep: op(() => 3) }) },
  });
  const stamp = (node: Node): Node =>
    node.handler && node !== untouched.children.a
      ? { ...node, meta: { ...node.meta, tags: { ...node.meta?.tags, openWorld: true } } }
      : node;
  const result = mapNodes(tree, stamp);
  assert.notEqual(result, tree);
  assert.equal(result.children!.untouched, untouched);
  assert.equal(tagsOf(result.children!.sub.children!.target).openWorld, true);
  assert.equal(tagsOf(result.fallback!.subtree.children!.deep).openWorld, true);
  assert.equal(result.fallback!.name, "id");
  assert.equal(tagsOf(target).openWorld, undefined, "input tree not modified");
  assert.ok(Object.isFrozen(result));
});

Deno.test("mapNodes: descends into what the visitor returned", () => {
  const tree = api({ old: op(() => 1) });
  const replacement = api({ fresh: op(() => 2) });
  const seen: string[] = [];
  const result = mapNodes(tree, (node, path) => {
    seen.push(path.join("/"));
    return path.length === 0 ? replacement : node;
  });
  assert.deepEqual(seen, ["", "fresh"]);
  assert.equal(result, replacement);
});

Deno.test("mapNodes: pushing a branch tag down is an explicit transform", () => {
  const tree = api({ inner: api({ leaf: op(() => 1) }) }, { meta: { tags: { openWorld: true } } });
  const pushDown = (root: Node) =>
    mapNodes(
      root,
      (node) =>
        node.handler
          ? { ...node, meta: { ...node.meta, tags: { ...node.meta?.tags, openWorld: true } } }
          : node,
    );
  assert.equal(tagsOf(tree.children.inner.children.leaf).openWorld, undefined);
  assert.equal(tagsOf(pushDown(tree).children!.inner.children!.leaf).openWorld, true);
});
