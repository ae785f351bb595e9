// Declared errors through the GraphQL client: `code` and `details` set only
// for codes the leaf declares, and safeGraphQL's union narrowing by code.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, LeafError, op } from "@ramify/api/tree";
import { createGraphQLClient, createHttpGraphQLServer } from "@ramify/api/graphql";
import {
  GraphQLClientError,
  type GraphQLClientErrorFrom,
  httpTransport,
  safeGraphQL,
} from "@ramify/api/graphql/client";
import { withServer } from "../../support/server.ts";

const errors = {
  NOTE_NOT_FOUND: { status: 404, data: z.object({ id: z.string() }) },
  NOTE_LOCKED: { status: 423 },
};
const tree = api({
  notes: api({
    read: op(({ id }) => {
      if (id === "locked") throw new LeafError("NOTE_LOCKED");
      if (id === "odd") throw new LeafError("NOT_DECLARED");
      throw new LeafError("NOTE_NOT_FOUND", { data: { id } });
    }, { tags: { readOnly: true }, input: z.object({ id: z.string() }), errors }),
    open: op(() => {
      throw new LeafError("NOTE_NOT_FOUND", { data: { id: "x" } });
    }, { tags: { readOnly: true } }),
  }),
});

function explain(error: GraphQLClientErrorFrom<typeof errors>): string {
  switch (error.code) {
    case "NOTE_NOT_FOUND":
      return `missing ${error.details.id}`;
    case "NOTE_LOCKED":
      // @ts-expect-error NOTE_LOCKED declares no data
      return error.details.id;
    // @ts-expect-error no such code is declared
    case "NOTE_GONE":
      return "";
    default:
      return `other: ${error.message}`;
  }
}

Deno.test("safeGraphQL: declared errors narrow by code; undeclared and masked ones have none", async () => {
  await withServer(createHttpGraphQLServer(tree, { onError: () => {} }), async (base) => {
    const client = createGraphQLClient(tree, {
      transport: httpTransport({ url: `${base}/graphql` }),
    });
    const missing = await safeGraphQL(client.notes.read({ id: "9" }));
    assert.ok(missing.error instanceof GraphQLClientError);
    assert.equal(explain(missing.error), "missing 9");
    const locked = await safeGraphQL(client.notes.read({ id: "locked" }));
    assert.deepEqual([locked.error?.code, locked.error?.details], ["NOTE_LOCKED", undefined]);
    // An undeclared code is a masked server fault.
    const odd = await safeGraphQL(client.notes.read({ id: "odd" }));
    assert.equal(odd.error?.code, undefined);
    assert.equal(odd.error?.errors[0].extensions?.code, "INTERNAL_SERVER_ERROR");
    // A leaf that declares nothing: the code is not read as declared.
    const open = await safeGraphQL(client.notes.open());
    assert.equal(open.error?.code, undefined);
  });
});
