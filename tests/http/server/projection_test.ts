import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import type { Node } from "@ramify/api/tree/node";
import { http } from "@ramify/api/http/verbs";
import { deriveVerb, httpProjection } from "@ramify/api/http/dx";
import { type HttpRoute, listOperations } from "@ramify/api/http";
import { bookstoreTree } from "../../support/bookstore.ts";

const table = (route: HttpRoute) =>
  listOperations(route).map((operation) => `${operation.method} ${operation.path}`).sort();

Deno.test("bookstore: the spec's exact routes", () => {
  assert.deepEqual(
    table(httpProjection(bookstoreTree())),
    [
      "DELETE /books/{bookId}",
      "GET /books/list",
      "GET /books/{bookId}",
      "GET /catalog/featured",
      "GET /catalog/search",
      "POST /books/add",
      "POST /books/{bookId}/checkout/start",
      "PUT /books/{bookId}",
      "PUT /books/{bookId}/checkout/reserve",
    ].sort(),
  );
});

Deno.test("branch names become segments, a leaf name the last one", () => {
  const route = httpProjection(api({ a: api({ b: api({ c: op(() => 1) }) }) }));
  assert.deepEqual(table(route), ["POST /a/b/c"]);
  const op1 = route.children.a.children.b.children.c.methods.POST!;
  assert.deepEqual(op1.steps, [
    { kind: "child", name: "a" },
    { kind: "child", name: "b" },
    { kind: "child", name: "c" },
  ]);
  assert.deepEqual(op1.params, []);
});

Deno.test("a fallback is one {name} segment shared by its subtree", () => {
  const route = httpProjection(api({
    users: api({}, {
      fallback: {
        name: "userId",
        subtree: api({
          posts: api({}, {
            fallback: { name: "postId", subtree: api({ likes: op(() => 1, http.get) }) },
          }),
          profile: op(() => 1, http.get),
        }),
      },
    }),
  }));
  assert.deepEqual(table(route), [
    "GET /users/{userId}/posts/{postId}/likes",
    "GET /users/{userId}/profile",
  ]);
  const likes = route.children.users.param!.route.children.posts.param!.route.children.likes
    .methods.GET!;
  assert.deepEqual(likes.params, ["userId", "postId"]);
  assert.equal(route.children.users.param!.name, "userId");
});

Deno.test("a fallback whose subtree is a leaf sits at the capture", () => {
  const route = httpProjection(api({
    files: api({}, { fallback: { name: "name", subtree: op(() => 1, http.get) } }),
  }));
  assert.deepEqual(table(route), ["GET /files/{name}"]);
});

Deno.test("leaves start as POST and get the derived verb", () => {
  const route = httpProjection(api({
    plain: op(() => 1),
    safe: op(() => 1, { tags: { readOnly: true } }),
    wipe: op(() => 1, { tags: { idempotent: true, destructive: true } }),
    set: op(() => 1, { tags: { idempotent: true } }),
    boom: op(() => 1, { tags: { destructive: true } }),
    pinned: op(() => 1, http.patch),
  }));
  assert.deepEqual(table(route), [
    "DELETE /wipe",
    "GET /safe",
    "PATCH /pinned",
    "POST /boom",
    "POST /plain",
    "PUT /set",
  ]);
});

Deno.test("verb derivation: the five steps in order, first match wins", () => {
  // 1. a verb directive beats every tag
  assert.equal(deriveVerb(op(() => 1, http.post, { tags: { readOnly: true } })), "POST");
  assert.equal(
    deriveVerb(op(() => 1, { http: { directives: [{ kind: "verb", value: "OPTIONS" }] } })),
    "OPTIONS",
  );
  // 2. readOnly beats idempotent
  assert.equal(deriveVerb(op(() => 1, { tags: { readOnly: true, idempotent: true } })), "GET");
  // 3. idempotent + destructive before idempotent alone
  assert.equal(
    deriveVerb(op(() => 1, { tags: { idempotent: true, destructive: true } })),
    "DELETE",
  );
  // 4. idempotent
  assert.equal(deriveVerb(op(() => 1, { tags: { idempotent: true, destructive: false } })), "PUT");
  // 5. otherwise
  assert.equal(deriveVerb(op(() => 1, { tags: { readOnly: false, openWorld: true } })), "POST");
  assert.equal(deriveVerb(op(() => 1)), "POST");
});

Deno.test("a method directive is what method rewriting reads", () => {
  const leaf = op(() => 1, {
    tags: { readOnly: true },
    http: { directives: [{ kind: "method", value: "PATCH" }] },
  });
  assert.deepEqual(table(httpProjection(api({ leaf }))), ["PATCH /leaf"]);
});

Deno.test("tags are not inherited: a readOnly branch does not make its leaves GET", () => {
  const route = httpProjection(api({
    reports: api({ build: op(() => 1) }, { meta: { tags: { readOnly: true } } }),
  }));
  assert.deepEqual(table(route), ["POST /reports/build"]);
  assert.deepEqual(route.children.reports.children.build.methods.POST!.tags, {});
});

Deno.test("fallback collapse: read, replace, update, remove sit at the capture", () => {
  const route = httpProjection(api({
    items: api({}, {
      fallback: {
        name: "id",
        subtree: api({
          read: op(() => 1, http.get),
          replace: op(() => 1, http.put),
          update: op(() => 1, http.patch),
          remove: op(() => 1, http.delete),
          archive: op(() => 1),
        }),
      },
    }),
  }));
  assert.deepEqual(table(route), [
    "DELETE /items/{id}",
    "GET /items/{id}",
    "PATCH /items/{id}",
    "POST /items/{id}/archive",
    "PUT /items/{id}",
  ]);
});

Deno.test("fallback collapse: only direct leaf children of a fallback subtree", () => {
  const route = httpProjection(api({
    read: op(() => 1, http.get),
    items: api({ read: op(() => 1, http.get) }, {
      fallback: {
        name: "id",
        subtree: api({ nested: api({ read: op(() => 1, http.get) }) }),
      },
    }),
  }));
  assert.deepEqual(table(route), [
    "GET /items/read",
    "GET /items/{id}/nested/read",
    "GET /read",
  ]);
});

Deno.test("fallback collapse: the collapsed names are an option", () => {
  const tree = api({}, {
    fallback: {
      name: "id",
      subtree: api({ read: op(() => 1, http.get), show: op(() => 1, http.get) }),
    },
  });
  assert.deepEqual(table(httpProjection(tree, { collapse: ["show"] })), [
    "GET /{id}",
    "GET /{id}/read",
  ]);
});

Deno.test("moveTo: '..' goes up to the parent", () => {
  const route = httpProjection(api({
    books: api({ all: op(() => [], http.get, http.moveTo("..")) }),
  }));
  assert.deepEqual(table(route), ["GET /books"]);
});

Deno.test("moveTo: '../name' renames", () => {
  const route = httpProjection(api({
    books: api({ list: op(() => [], http.get, http.moveTo("../all")) }),
  }));
  assert.deepEqual(table(route), ["GET /books/all"]);
});

Deno.test("moveTo: '*' pushes a wildcard named after the leaf, '*name' names it", () => {
  const route = httpProjection(api({
    files: api({ path: op(() => 1, http.get, http.moveTo("../*")) }),
    docs: api({ meta: op(() => 1, http.get, http.moveTo("../*key/meta")) }),
  }));
  assert.deepEqual(table(route), ["GET /docs/{key}/meta", "GET /files/{path}"]);
  assert.equal(route.children.files.param?.name, "path");
  assert.deepEqual(route.children.docs.param?.route.children.meta.methods.GET?.params, ["key"]);
});

Deno.test("moveTo: several levels, creating missing levels", () => {
  const route = httpProjection(api({
    a: api({ b: api({ c: op(() => 1, http.get, http.moveTo("../../../x/y/z")) }) }),
  }));
  assert.deepEqual(table(route), ["GET /x/y/z"]);
  assert.deepEqual(Object.keys(route.children), ["x"], "nothing is left at the old address");
});

Deno.test("moveTo: '.' stays; a move keeps a bundle's verb", () => {
  const route = httpProjection(api({
    r: api({
      edit: op(() => 1, http.patch, http.moveTo("..")),
      same: op(() => 1, http.moveTo(".")),
    }),
  }));
  assert.deepEqual(table(route), ["PATCH /r", "POST /r/same"]);
});

Deno.test("moveTo: overrides the fallback collapse", () => {
  const route = httpProjection(api({}, {
    fallback: {
      name: "id",
      subtree: api({ read: op(() => 1, http.get, http.moveTo(".")) }),
    },
  }));
  assert.deepEqual(table(route), ["GET /{id}/read"]);
});

Deno.test("moveTo: leaves moved to one position merge their methods", () => {
  const route = httpProjection(api({
    books: api({
      list: op(() => [], http.get, http.moveTo("..")),
      create: op(() => 1, http.post, http.moveTo("..")),
      purge: op(() => 1, http.delete, http.moveTo("..")),
    }),
  }));
  assert.deepEqual(table(route), ["DELETE /books", "GET /books", "POST /books"]);
  assert.deepEqual(Object.keys(route.children.books.methods).sort(), ["DELETE", "GET", "POST"]);
});

Deno.test("moveTo on a branch moves its subtree, merging recursively", () => {
  const route = httpProjection(api({
    v1: api({
      users: api({ list: op(() => [], http.get), add: op(() => 1) }),
    }),
    legacy: api({
      users: api({ count: op(() => 0, http.get) }),
      info: op(() => 1, http.get),
    }, { meta: { http: { directives: [{ kind: "moveTo", value: "../v1" }] } } }),
  }));
  assert.deepEqual(table(route), [
    "GET /v1/info",
    "GET /v1/users/count",
    "GET /v1/users/list",
    "POST /v1/users/add",
  ]);
  assert.deepEqual(Object.keys(route.children.v1.children.users.children), [
    "list",
    "add",
    "count",
  ]);
});

Deno.test("conflict: two leaves on one verb and position throw the spec's message", () => {
  const tree = api({
    books: api({
      list: op(() => [], http.get, http.moveTo("..")),
      all: op(() => [], http.get, http.moveTo("..")),
    }),
  });
  assert.throws(
    () => httpProjection(tree),
    (error: unknown) =>
      error instanceof Error &&
      error.message.startsWith("applyMoveTo: conflicting route GET /books") &&
      /is defined by more than one node \(books\/list and books\/all\)/.test(error.message),
  );
});

Deno.test("conflict: a moved leaf onto an existing one, and a collapse onto a move", () => {
  assert.throws(
    () =>
      httpProjection(api({
        a: op(() => 1, http.get),
        b: api({ c: op(() => 1, http.get, http.moveTo("../../a")) }),
      })),
    /^Error: applyMoveTo: conflicting route GET \/a is defined by more than one node \(a and b\/c\)/,
  );
  assert.throws(
    () =>
      httpProjection(api({}, {
        fallback: {
          name: "id",
          subtree: api({
            read: op(() => 1, http.get),
            get: op(() => 1, http.get, http.moveTo("..")),
          }),
        },
      })),
    /applyMoveTo: conflicting route GET \/\{id\}/,
  );
});

Deno.test("errors: a move above the root, capture clashes", () => {
  assert.throws(
    () => httpProjection(api({ a: op(() => 1, http.moveTo("../..")) })),
    /moveTo\("\.\.\/\.\."\) of a goes above the root/,
  );
  assert.throws(
    () =>
      httpProjection(api({
        x: op(() => 1, http.get, http.moveTo("../*a")),
        y: op(() => 1, http.get, http.moveTo("../*b/y")),
      })),
    /captures \{a\} and \{b\} meet at one position/,
  );
  const nested: Node = api({}, {
    fallback: { name: "id", subtree: api({}, { fallback: { name: "id", subtree: op(() => 1) } }) },
  });
  assert.throws(
    () => httpProjection(nested),
    /the capture \{id\} appears twice in \/\{id\}\/\{id\}/,
  );
});

Deno.test("a root leaf sits at /, a node with handler and children at its own path", () => {
  const root = { handler: () => "root", children: { sub: op(() => 1, http.get) } };
  assert.deepEqual(table(httpProjection(root)), ["GET /sub", "POST /"]);
});

Deno.test("response stage: streaming leaves are event streams", () => {
  const route = httpProjection(api({
    ticks: op(async function* () {
      yield 1;
    }, { tags: { streaming: true, readOnly: true } }),
    once: op(() => 1, http.get),
  }));
  assert.equal(route.children.ticks.methods.GET!.response, "event-stream");
  assert.equal(route.children.once.methods.GET!.response, "json");
});

Deno.test("the route is frozen and deterministic", () => {
  const tree = bookstoreTree();
  const a = httpProjection(tree);
  const b = httpProjection(tree);
  assert.deepEqual(a, b);
  assert.ok(Object.isFrozen(a) && Object.isFrozen(a.children) && Object.isFrozen(a.methods));
  assert.deepEqual(Object.keys(a.children), ["books", "catalog"]);
});

Deno.test("a segment named __proto__ stays an ordinary segment", () => {
  const children = Object.defineProperty({}, "__proto__", {
    value: op(() => 1, http.get),
    enumerable: true,
  });
  const route = httpProjection(api(children));
  assert.deepEqual(table(route), ["GET /__proto__"]);
  assert.equal(Object.getPrototypeOf(route.children), Object.prototype);
});
