// The app the start-up comparisons build with ramify: `leaves` operations, half
// a GET with a capture and half a POST whose body a zod schema checks
// (_hono_app.ts is the same app on Hono).
import { api, op } from "@ramify/api/tree";
import type { Node } from "@ramify/api/tree/node";
import { z } from "zod";

const Book = z.object({ title: z.string().min(1), pages: z.number().int().positive() });

/** `leaves` ramify operations in pairs: `GET /r<i>/{id}` and `POST /r<i>/add`. */
export function ramifyTree(leaves: number): Node {
  const children: Record<string, Node> = {};
  for (let i = 0; i < leaves / 2; i++) {
    children[`r${i}`] = api({
      add: op((book) => ({ id: "1", ...book }), { input: Book }),
    }, {
      fallback: {
        name: "id",
        subtree: op(({ id }: { id: string }) => ({ id }), { tags: { readOnly: true } }),
      },
    });
  }
  return api(children);
}
