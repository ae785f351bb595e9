// Tree names that are path segments but not GraphQL names (`list-all`) are
// converted as properties are (`listAll`), and every client still calls them
// by their tree names; two names that meet are an error naming both.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import {
  createGraphQLClient,
  createGraphQLServer,
  generateGraphQLClient,
  serverTransport,
  toSDL,
} from "@ramify/api/graphql";

const readOnly = { tags: { readOnly: true } };
const tree = api({
  "list-all": op(() => 1, readOnly),
  "my-books": api({ "add-one": op(() => 2), "get-all": op(() => [3], readOnly) }),
});

Deno.test("names: segments that are no GraphQL names are converted, and clients call them by tree name", async () => {
  const sdl = toSDL(tree);
  assert.match(sdl, /^ {2}listAll: JSON$/m);
  assert.match(sdl, /^ {2}myBooks: MyBooksQuery!$/m);
  assert.match(sdl, /^ {2}myBooksAddOne: JSON$/m);
  assert.match(sdl, /^type MyBooksQuery \{\n {2}getAll: JSON\n\}/m);
  const client = createGraphQLClient(tree, {
    transport: serverTransport(createGraphQLServer(tree)),
  });
  assert.equal(await client["list-all"](), 1);
  assert.equal(await client["my-books"]["add-one"](), 2);
  assert.deepEqual(await client["my-books"]["get-all"](), [3]);
  assert.match(
    generateGraphQLClient(tree),
    /MyBooksGetAll: "query MyBooksGetAll \{ myBooks \{ getAll \} \}"/,
  );
});

Deno.test("names: two tree names that convert to one GraphQL name are an error naming both", () => {
  assert.throws(
    () => toSDL(api({ "list-all": op(() => 1), listAll: op(() => 2) })),
    /list-all and listAll both project to Query\.listAll/,
  );
});
