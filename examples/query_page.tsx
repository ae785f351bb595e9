/// <reference lib="dom" />
/**
 * A React page over the bookstore with TanStack Query: the list comes from
 * `useQuery`, a book is added with `useMutation`, and the list refreshes
 * after the mutation with no invalidation written here: the query utils
 * derive it from the tree (`books.add` touches the `books` subtree).
 *
 * @module
 */

// JSX compiles to React.createElement, a use the linter does not see.
// @ts-types="@types/react"
// deno-lint-ignore verbatim-module-syntax
import React from "react";
// @ts-types="@types/react-dom/client"
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider, useMutation, useQuery } from "@tanstack/react-query";
import { createClientFromManifest } from "@ramify/api/client";
import { createQueryUtils } from "@ramify/api/query";
import type { Bookstore } from "./bookstore.ts";
import { routes } from "./bookstore_routes.ts";

type Queries = ReturnType<typeof bookstoreQueries>;

/** The bookstore's query utils for the server at `baseUrl`; `token` for mutations. */
export function bookstoreQueries(baseUrl: string, token?: string) {
  return createQueryUtils(
    createClientFromManifest<Bookstore>(routes, {
      baseUrl,
      ...(token === undefined ? {} : { token }),
    }),
  );
}

function Books({ queries }: { readonly queries: Queries }) {
  const books = useQuery(queries.books.list.queryOptions({}));
  const add = useMutation(queries.books.add.mutationOptions());
  if (books.error !== null) return <p id="error">{books.error.message}</p>;
  return (
    <main>
      <ul id="books">
        {books.data?.map((book) => <li key={book.id}>{book.title} ({book.author})</li>)}
      </ul>
      <button
        id="add"
        type="button"
        disabled={add.isPending}
        onClick={() => add.mutate({ title: "Emma", author: "Jane Austen" })}
      >
        Add Emma
      </button>
      {add.error === null ? null : <p id="add-error">{add.error.message}</p>}
    </main>
  );
}

/** Renders the page into `element`, against the server at `baseUrl`. */
export function mountBookstorePage(element: Element, baseUrl: string, token?: string): void {
  // Never stale: nothing but a mutation's derived invalidation refetches the list.
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  createRoot(element).render(
    <QueryClientProvider client={queryClient}>
      <Books queries={bookstoreQueries(baseUrl, token)} />
    </QueryClientProvider>,
  );
}
