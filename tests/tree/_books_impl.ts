// The server side of _books_contract.ts: its handlers, with a marker string a
// browser bundle of the contract must not hold.
import { implement, LeafError } from "@ramify/api/tree";
import { books } from "./_books_contract.ts";

export const HANDLER_MARKER = "handler code of the contract test";

/** The contract implemented over an in-memory shelf. */
export function booksTree() {
  const shelf = new Map<string, { id: string; title: string }>();
  return implement(books, {
    list: () => [...shelf.values()],
    add: ({ title }) => {
      if ([...shelf.values()].some((book) => book.title === title)) {
        throw new LeafError("TAKEN", { message: HANDLER_MARKER });
      }
      const book = { id: String(shelf.size + 1), title };
      shelf.set(book.id, book);
      return book;
    },
    bookId: { read: ({ bookId }) => shelf.get(bookId) ?? { id: bookId, title: HANDLER_MARKER } },
  });
}
