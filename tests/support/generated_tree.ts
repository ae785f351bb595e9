// A large generated tree for document tests and benchmarks: `resources` branches,
// each with collection operations, a fallback with item operations and a nested
// fallback, over a few shared, titled schemas.
import { api, op } from "@ramify/api/tree";
import type { Node } from "@ramify/api/tree/node";
import { http } from "@ramify/api/http/verbs";
import { z } from "zod";

const Page = z.object({
  cursor: z.string().optional(),
  limit: z.number().int().min(1).max(100).optional(),
});
const Address = z.object({ street: z.string(), city: z.string(), zip: z.string() }).meta({
  title: "Address",
});
const Owner = z.object({ id: z.string(), name: z.string(), address: Address }).meta({
  title: "Owner",
});
const Item = z.object({
  id: z.string(),
  name: z.string().describe("What the item is called"),
  owner: Owner,
  tags: z.array(z.string()),
  status: z.enum(["draft", "live", "archived"]),
}).meta({ title: "Item" });
const ItemFields = z.object({ name: z.string(), owner: Owner, tags: z.array(z.string()) });
const Note = z.object({ id: z.string(), text: z.string(), author: Owner }).meta({ title: "Note" });

// The tree is described, not called: each handler returns one valid sample.
const owner = { id: "o1", name: "Ann", address: { street: "Main St", city: "Oslo", zip: "0150" } };
const item: z.input<typeof Item> = { id: "1", name: "Lamp", owner, tags: [], status: "live" };
const note: z.input<typeof Note> = { id: "n1", text: "Bright", author: owner };

/** A tree of about `leaves` operations (rounded up to a multiple of 10). */
export function generatedTree(leaves: number): Node {
  const children: Record<string, Node> = {};
  for (let r = 0; r * 10 < leaves; r++) {
    children[`resource${r}`] = api({
      list: op(() => [], http.get, { input: Page, output: z.array(Item) }),
      add: op((fields) => ({ ...item, ...fields }), { input: ItemFields, output: Item }),
      search: op(() => [], http.get, {
        input: z.object({ q: z.string(), filter: z.object({ status: z.string() }).optional() }),
        output: z.array(Item),
      }),
    }, {
      fallback: {
        name: `id${r}`,
        subtree: api({
          read: op(() => item, http.get, { output: Item }),
          replace: op(() => item, http.put, { input: ItemFields, output: Item }),
          remove: op(() => undefined, http.delete, { output: z.void() }),
          archive: op(() => item, { output: Item, description: "Archives the item" }),
          notes: api({
            list: op(() => [], http.get, { output: z.array(Note) }),
            add: op(() => note, { input: z.object({ text: z.string() }), output: Note }),
          }, {
            fallback: {
              name: `note${r}`,
              subtree: api({
                read: op(() => note, http.get, { output: Note }),
                remove: op(() => undefined, http.delete),
              }),
            },
          }),
        }),
      },
    });
  }
  return api(children);
}
