/**
 * `toTrustedDocuments(tree, opts?)`: the trusted documents of a tree, for a
 * GraphQL server's `trustedDocuments` option. They are the documents the
 * generated client (`generateGraphQLClient`) and the typed client
 * (`createGraphQLClient`) send, so a server that runs only these still
 * answers both; anything else a client makes up is refused.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { createHttpGraphQLServer, toTrustedDocuments } from "@ramify/api/graphql";
 *
 * const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });
 * const documents = await toTrustedDocuments(tree);
 * const handler = createHttpGraphQLServer(tree, { trustedDocuments: { documents } });
 * const refused = await handler(
 *   new Request("http://localhost/graphql?query=%7B__typename%7D", {
 *     headers: { accept: "application/json" },
 *   }),
 * );
 * console.log((await refused.json()).errors[0].extensions.code); // "PERSISTED_QUERY_ONLY"
 * ```
 *
 * @module
 */

import type { Node } from "../../tree/node.ts";
import { projectGraphQL } from "../schema/projection.ts";
import { buildDocument } from "./document.ts";
import { TASK_DOCUMENTS } from "./_tasks.ts";
import type { GenerateGraphQLClientOptions } from "./generate.ts";
import { sha256 } from "../../tree/digest.ts";

/**
 * Every document the clients of `tree` send, by id: `sha256:` and the SHA-256
 * of the text in lower-case hex (what Apollo's clients send as
 * `extensions.persistedQuery.sha256Hash`). Give it the options the clients
 * are made with (`maxDepth` shapes the documents). A tree with a
 * long-running leaf also gets the documents that read, cancel and answer its
 * tasks (`task`, `cancelTask`, `answerTask`), as the clients send them.
 *
 * @example
 * ```ts
 * import { api, op } from "@ramify/api/tree";
 * import { toTrustedDocuments } from "@ramify/api/graphql";
 *
 * const documents = await toTrustedDocuments(api({
 *   ping: op(() => "pong", { tags: { readOnly: true } }),
 * }));
 * console.log(Object.values(documents)); // ["query Ping { ping }"]
 * ```
 */
export async function toTrustedDocuments(
  tree: Node,
  opts: GenerateGraphQLClientOptions = {},
): Promise<Record<string, string>> {
  const projection = projectGraphQL(tree, opts);
  const documents: Record<string, string> = {};
  for (const field of projection.fields) {
    const { query } = buildDocument(projection, field, opts);
    documents[await documentIdOf(query)] = query;
  }
  // A long-running leaf's call reads, cancels and answers its task: those
  // documents too, as both clients send them.
  if (projection.tasks.length > 0) {
    for (const { query } of Object.values(TASK_DOCUMENTS)) {
      documents[await documentIdOf(query)] = query;
    }
  }
  return documents;
}

async function documentIdOf(text: string): Promise<string> {
  return `sha256:${await sha256(text)}`;
}
