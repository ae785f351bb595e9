// How a type is named, the one rule of every projection that names types (the
// SDL, the generated GraphQL client, OpenAPI components): a schema's own name
// (its id, else its title) wins; without one, the nearest named holder gives
// it (`Message.kind` is `MessageKind`) before any operation does; the names do
// not depend on the order in which leaves are met.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import type { Node } from "@ramify/api/tree/node";
import { http } from "@ramify/api/http/verbs";
import { toOpenApi } from "@ramify/api/http";
import { generateGraphQLClient, projectGraphQL, toSDL } from "@ramify/api/graphql";

/** The tree: an unnamed enum, in a named object and in a filter's list, `search` first. */
function workspaces(Kind: z.ZodEnum<{ text: "text"; image: "image" }>, reversed = false): Node {
  const Message = z.object({ id: z.string(), kind: Kind }).meta({ title: "Message" });
  const leaves: Record<string, Node> = {
    search: op(() => [], http.get, {
      input: z.object({ kinds: z.array(Kind).optional() }),
      output: z.array(Message),
    }),
    post: op((message) => message, http.post, { input: Message, output: Message }),
  };
  const ordered = reversed ? Object.fromEntries(Object.entries(leaves).reverse()) : leaves;
  return api({ workspaces: api(ordered) });
}

/** Every named type with what it is, as text: order-free. */
function typesOf(tree: Node): string[] {
  return projectGraphQL(tree).types.definitions.map((d) => JSON.stringify(d)).sort();
}

Deno.test("type names: an unnamed enum is named after its nearest named holder, not an argument", () => {
  const tree = workspaces(z.enum(["text", "image"]));
  const sdl = toSDL(tree);
  assert.match(sdl, /^enum MessageKind \{$/m);
  assert.match(sdl, /^type Message \{\n {2}id: String!\n {2}kind: MessageKind!\n\}$/m);
  assert.match(sdl, /search\(kinds: \[MessageKind!\]\): \[Message!\]/);
  assert.match(sdl, /workspacesPost\(id: String!, kind: MessageKind!\): Message/);
  assert.doesNotMatch(sdl, /WorkspacesSearchKinds/);
  const source = generateGraphQLClient(tree);
  assert.match(source, /^export type MessageKind = "text" \| "image";$/m);
  assert.match(source, /^ {2}kind: MessageKind;$/m);
  assert.match(source, /^ {2}kinds\?: Array<MessageKind> \| null;$/m);
});

Deno.test("type names: the order leaves are met in changes no name", () => {
  const Kind = z.enum(["text", "image"]);
  assert.deepEqual(typesOf(workspaces(Kind, true)), typesOf(workspaces(Kind)));
  // Without a named holder, the nearest operation names it, whatever the order.
  const Size = z.enum(["s", "m"]);
  const sized = (first: boolean) => {
    const nested = op(() => null, http.post, {
      input: z.object({ filter: z.object({ size: Size }) }),
    });
    const flat = op(() => null, http.post, { input: z.object({ size: Size }) });
    return api(first ? { nested, flat } : { flat, nested });
  };
  assert.match(toSDL(sized(true)), /^enum FlatSize \{$/m);
  assert.deepEqual(typesOf(sized(true)), typesOf(sized(false)));
});

Deno.test("type names: a schema's own name wins everywhere: an id, else a title", async () => {
  for (
    const [Kind, name] of [
      [z.enum(["text", "image"]).meta({ id: "Kind" }), "Kind"],
      [z.enum(["text", "image"]).meta({ title: "Kind" }), "Kind"],
      // An id is the schema's name; a title may be prose.
      [z.enum(["text", "image"]).meta({ id: "Kind", title: "Kind of message" }), "Kind"],
    ] as const
  ) {
    const tree = workspaces(Kind);
    const sdl = toSDL(tree);
    assert.match(sdl, new RegExp(`^enum ${name} \\{$`, "m"));
    assert.match(sdl, new RegExp(`search\\(kinds: \\[${name}!\\]\\)`));
    assert.match(sdl, new RegExp(`^ {2}kind: ${name}!$`, "m"));
    assert.match(generateGraphQLClient(tree), new RegExp(`^export type ${name} = `, "m"));
    const doc = await toOpenApi(tree);
    const schemas = doc.components.schemas as Record<string, Record<string, unknown>>;
    assert.deepEqual(schemas[name]?.enum, ["text", "image"], `OpenAPI names ${name}`);
    const message = schemas.Message as { properties: Record<string, unknown> };
    assert.deepEqual(message.properties.kind, { $ref: `#/components/schemas/${name}` });
  }
});

Deno.test("type names: OpenAPI names a recursive schema without a name as GraphQL does", async () => {
  type Tree = { label: string; children: Tree[] };
  const Outline: z.ZodType<Tree> = z.object({
    label: z.string(),
    get children() {
      return z.array(Outline);
    },
  });
  const Doc = z.object({ id: z.string(), outline: Outline }).meta({ title: "Doc" });
  const tree = api({
    docs: api({
      read: op(() => ({ id: "1", outline: { label: "a", children: [] } }), http.get, {
        output: Doc,
      }),
    }),
  });
  assert.match(toSDL(tree), /^type DocOutline \{$/m);
  const doc = await toOpenApi(tree);
  const schemas = doc.components.schemas as Record<string, Record<string, unknown>>;
  assert.ok(schemas.DocOutline !== undefined, Object.keys(schemas).join(", "));
  assert.deepEqual(
    (schemas.Doc as { properties: Record<string, unknown> }).properties.outline,
    { $ref: "#/components/schemas/DocOutline" },
  );
});
