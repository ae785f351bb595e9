/**
 * GraphQL over HTTP benchmark: our `createHttpGraphQLServer` against
 * graphql-yoga, a bare graphql-http handler and a minimal graphql-jit handler,
 * in process (each handler is called with a fresh `Request` made as the wire
 * delivers it, a body of bytes with its `Content-Length`, the same for all;
 * the response body is read in full). Over real HTTP, see
 * `graphql_serve_count.ts`. All four serve one schema: yoga gets `toSDL(tree)` with
 * `createResolver(tree)`, graphql-http and graphql-jit get
 * `toSchema(projectGraphQL(tree))`, so the same resolvers run the same
 * handlers. The graphql-jit handler does no more than it must: it parses and
 * compiles each document once (cached by its text, no validation, no limits,
 * no protocol checks), runs it and answers `JSON.stringify` of the result. At
 * load time the file checks that all four answer every request with the same
 * body, and throws if not.
 *
 * The tree, the requests and the graphql-jit handler are `graphql_app.ts`'s,
 * which `graphql_count.ts` counts in instructions.
 *
 * Run with `deno task bench` or
 * `deno bench --allow-read --allow-env --allow-net=127.0.0.1 bench/graphql.bench.ts`.
 *
 * @module
 */

import { createSchema, createYoga } from "graphql-yoga";
import { createHandler } from "graphql-http/lib/use/fetch";
import { createResolver, projectGraphQL, toSchema, toSDL } from "@ramify/api/graphql";
import { cases, type Handler, jit, ours, tree } from "./graphql_app.ts";

const yoga = createYoga({
  schema: createSchema({ typeDefs: toSDL(tree), resolvers: createResolver(tree) }),
  graphqlEndpoint: "/graphql",
  logging: false,
  maskedErrors: true,
});
const yogaHandler: Handler = async (request) => await yoga.fetch(request);
const bare: Handler = createHandler({ schema: toSchema(projectGraphQL(tree)) });

const peers: Record<string, Handler> = {
  "ramify (ours)": ours,
  "graphql-yoga": yogaHandler,
  "graphql-http": bare,
  "graphql-jit": jit,
};

// Same answers from every server, or the comparison means nothing.
for (const [name, make] of Object.entries(cases)) {
  const bodies = new Map<string, string>();
  for (const [peer, handler] of Object.entries(peers)) {
    const response = await handler(make());
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${peer} ${name}: ${response.status} ${text}`);
    bodies.set(peer, JSON.stringify(JSON.parse(text)));
  }
  const distinct = new Set(bodies.values());
  if (distinct.size !== 1) {
    throw new Error(`${name}: the servers disagree:\n${[...bodies].join("\n")}`);
  }
}

for (const [name, make] of Object.entries(cases)) {
  for (const [peer, handler] of Object.entries(peers)) {
    Deno.bench({
      name: peer,
      group: name,
      baseline: handler === ours,
      async fn() {
        const response = await handler(make());
        await response.text();
      },
    });
  }
}
