// The catalogue: a tree described once. Made once per tree; each entry's
// position, input mode, tags (implied ones too), schemas, confirmation,
// errors and prepared call are the ones every surface reads, worked out once.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createCall } from "@ramify/api/tree/catalogue";
import { catalogueOf } from "../../tree/catalogue.ts";
import { toSDL } from "@ramify/api/graphql";
import { runCli } from "@ramify/api/cli";
import { memoryIo } from "../support/cli_io.ts";

const TAKEN = { TAKEN: { status: 409, message: "Taken" } };
const tree = api({
  books: api({
    list: op(() => [], { tags: { readOnly: true } }),
    add: op(({ title }) => ({ title }), { input: z.object({ title: z.string() }), errors: TAKEN }),
  }, {
    fallback: {
      name: "bookId",
      subtree: api({ remove: op(() => undefined, { tags: { destructive: true } }) }),
    },
  }),
});

Deno.test("catalogue: made once per tree, each leaf described once", () => {
  const catalogue = catalogueOf(tree);
  assert.equal(catalogueOf(tree), catalogue, "the same catalogue for every surface");
  const [list, add, remove] = catalogue.entries;
  assert.deepEqual(catalogue.entries.map((entry) => entry.label), [
    "books/list",
    "books/add",
    "books/{bookId}/remove",
  ]);
  assert.deepEqual([list.input, add.input], ["open", "schema"]);
  assert.equal(list.tags.idempotent, true, "readOnly implies idempotent");
  assert.deepEqual([list.confirms, remove.confirms], [false, true]);
  assert.deepEqual(remove.captures, ["bookId"]);
  assert.deepEqual(Object.keys(add.errors), ["TAKEN"]);
  assert.deepEqual(Object.keys(add.inputSchema?.properties ?? {}), ["title"]);
  assert.equal(list.inputSchema, undefined);
  // Worked out once: the same schema object and the same prepared call on every read.
  assert.equal(add.inputSchema, add.inputSchema);
  assert.equal(add.call, add.call);
  assert.equal(remove.call, createCall(remove.leaf, { captures: ["bookId"] }));
  assert.equal(
    catalogue.at([{ kind: "child", name: "books" }, { kind: "fallback", name: "bookId" }, {
      kind: "child",
      name: "remove",
    }]),
    remove,
  );
  assert.equal(catalogue.at([{ kind: "child", name: "books" }]), undefined, "a branch is no leaf");
});

Deno.test("catalogue: a schema without a JSON Schema form fails when read, naming the leaf on each surface", async () => {
  const broken = {
    "~standard": {
      version: 1,
      vendor: "test",
      validate: (value: unknown) => ({ value }),
      jsonSchema: {
        input: () => {
          throw new Error("no form");
        },
        output: () => ({}),
      },
    },
  } as const;
  const odd = api({ odd: op(() => 1, { input: broken as never }) });
  assert.throws(
    () => catalogueOf(odd).entries[0].inputSchema,
    /cannot be expressed as JSON Schema/,
  );
  assert.throws(
    () => toSDL(odd),
    /projectGraphQL: the input schema of odd has no JSON Schema form/,
  );
  const io = memoryIo();
  const faults: unknown[] = [];
  const code = await runCli(odd, ["odd"], { io, onError: (error) => void faults.push(error) });
  assert.deepEqual([code, io.stderr.join("")], [1, "error: 500 Internal Server Error\n"]);
  assert.match(String(faults[0]), /the input schema of odd has no JSON Schema form/);
});
