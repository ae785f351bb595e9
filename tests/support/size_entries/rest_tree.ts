/**
 * The tiny tree the edge entries serve: a GET with a capture and a zod POST.
 *
 * @module
 */
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { z } from "zod";

/** `GET /items/{id}/read` and `POST /items/add` (422 when `name` is missing or empty). */
export const tree = api({
  items: api({
    add: op(({ name }) => ({ name, added: true }), http.post, {
      input: z.object({ name: z.string().min(1) }),
    }),
  }, {
    fallback: {
      name: "id",
      subtree: api({ read: op(({ id }) => ({ id }), { tags: { readOnly: true } }) }),
    },
  }),
});
