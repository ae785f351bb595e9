// A browser's client built from the contract itself: no manifest to generate.
import { createClient } from "@ramify/api/http";
import { books } from "./_books_contract.ts";

export function booksClient(baseUrl: string) {
  return createClient(books, { baseUrl });
}
