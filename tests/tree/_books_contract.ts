// A contract a browser bundle imports: shapes, schemas and descriptions only.
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { z } from "zod";

export const Book = z.object({ id: z.string(), title: z.string() });

export const books = api(
  {
    list: op.contract(http.get, {
      output: z.array(Book),
      description: "Lists the books of the contract",
      tags: { readOnly: true },
    }),
    add: op.contract({
      input: z.object({ title: z.string().min(1) }),
      output: Book,
      errors: { TAKEN: { status: 409 } },
      tags: { destructive: false },
    }),
  },
  {
    fallback: {
      name: "bookId",
      subtree: api({
        read: op.contract(http.get, { input: z.object({ bookId: z.string() }), output: Book }),
      }),
    },
  },
);
