// The spec's bookstore tree, shared by tests: books with list/add, a bookId
// fallback with read/replace/remove and checkout start/reserve, a readOnly catalog.
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";

export function bookstoreTree() {
  return api({
    books: api({
      list: op(() => [], { tags: { readOnly: true } }),
      add: op((input: { title: string }) => ({ id: "1", ...input })),
    }, {
      fallback: {
        name: "bookId",
        subtree: api({
          read: op(({ bookId }: { bookId: string }) => ({ id: bookId }), {
            tags: { readOnly: true },
          }),
          replace: op(({ bookId }: { bookId: string }) => ({ id: bookId }), {
            tags: { idempotent: true },
          }),
          remove: op(() => undefined, { tags: { destructive: true, idempotent: true } }),
          checkout: api({
            start: op(() => ({ started: true })),
            reserve: op(() => ({ reserved: true }), { tags: { idempotent: true } }),
          }),
        }),
      },
    }),
    catalog: api({
      featured: op(() => [], http.get),
      search: op(() => [], { tags: { readOnly: true } }),
    }),
  });
}
