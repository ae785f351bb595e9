/**
 * The bookstore as a command line: the same tree the server serves.
 *
 *   deno task cli -- books list
 *   deno task cli -- books 1 read
 *   deno task cli -- books add --title Emma --author "Jane Austen"
 *   deno task cli -- catalog search --q dune --limit 5
 *   deno task cli -- books 1 remove --yes
 *   deno task cli -- --url http://localhost:8000 books list   # against `deno task server`
 *   deno task cli -- completion bash
 *
 * @module
 */

import { mainCli } from "@ramify/api/cli";
import { bookstore, MemoryBookStore } from "./bookstore.ts";

if (import.meta.main) {
  await mainCli(
    bookstore(
      new MemoryBookStore([
        { title: "Dune", author: "Frank Herbert", year: 1965 },
        { title: "The Dispossessed", author: "Ursula K. Le Guin", year: 1974 },
      ]),
    ),
    { name: "bookstore" },
  );
}
