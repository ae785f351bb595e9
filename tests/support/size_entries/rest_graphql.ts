/**
 * A REST + GraphQL edge worker: the REST worker's routes, and the same tree
 * as GraphQL over HTTP at `/graphql`.
 *
 * @module
 */
import { createFetch } from "@ramify/api/http";
import { createHttpGraphQLServer } from "@ramify/api/graphql";
import { tree } from "./rest_tree.ts";

const rest = createFetch(tree, { document: { title: "Edge", version: "1.0.0" } });
const graphql = createHttpGraphQLServer(tree);

/** The worker: GraphQL at `/graphql`, REST everywhere else. */
export default {
  fetch: (request: Request) =>
    new URL(request.url).pathname === "/graphql" ? graphql(request) : rest(request),
};
