// Run by compiled_cache_test.ts in a process of its own with --expose-gc:
// floods a server with distinct documents and prints the heap it kept, in
// bytes, after collecting garbage. Arguments: documentCacheSize, documentCacheBytes.

import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createGraphQLServer } from "@ramify/api/graphql";

const [size, bytes] = Deno.args.map(Number);
const collect = (globalThis as unknown as { gc: () => void }).gc;
const Book = z.object({ id: z.string(), title: z.string(), tags: z.array(z.string()) });
const server = createGraphQLServer(
  api({
    books: api({ list: op(() => [], { tags: { readOnly: true }, output: z.array(Book) }) }),
  }),
  { documentCacheSize: size, documentCacheBytes: bytes },
);
const query = (i: number) => `query Q${i} { books { list { id a${i % 7}: title tags } } }`;
await server.execute({ query: query(-1) });
collect();
const before = Deno.memoryUsage().heapUsed;
for (let i = 0; i < 10_000; i++) await server.execute({ query: query(i) });
collect();
console.log(JSON.stringify({
  kept: Deno.memoryUsage().heapUsed - before,
  documents: server.stats.documents,
  compiled: server.stats.compiled,
  chars: query(5000).length,
}));
