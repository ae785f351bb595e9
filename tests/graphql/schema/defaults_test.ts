// Schema defaults appear in the SDL, on arguments and input fields, as literals
// of their type (enum values for enums, lists, numbers), and GraphQL applies them.
import assert from "node:assert/strict";
import { buildSchema } from "graphql";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createGraphQLServer, toSDL } from "@ramify/api/graphql";

const tree = api({
  items: api({
    list: op((input) => input, {
      tags: { readOnly: true },
      input: z.object({
        limit: z.number().int().default(10),
        status: z.enum(["draft", "live"]).default("live"),
        tags: z.array(z.string()).default(["a"]),
        page: z.object({ size: z.number().default(5) }).optional(),
        ratio: z.number().default(0.5),
        note: z.string().default("none"),
      }),
    }),
  }),
});

Deno.test("defaults: arguments and input fields carry the schema's defaults in the SDL", () => {
  const sdl = toSDL(tree);
  buildSchema(sdl);
  assert.match(sdl, /limit: Int = 10/);
  assert.match(sdl, /status: ItemsListStatus = live/);
  assert.match(sdl, /tags: \[String!\] = \["a"\]/);
  assert.match(sdl, /ratio: Float = 0\.5/);
  assert.match(sdl, /note: String = "none"/);
  assert.match(sdl, /input ItemsListPageInput \{\n {2}size: Float = 5\n\}/);
});

Deno.test("defaults: a call without the arguments gets the defaults", async () => {
  const result = await createGraphQLServer(tree).execute({ query: "{ items { list } }" });
  assert.deepEqual(JSON.parse(JSON.stringify(result.data)), {
    items: { list: { limit: 10, status: "live", tags: ["a"], ratio: 0.5, note: "none" } },
  });
});
