// The typed client and Idempotency-Key, over the network: the retry extension
// sends one key on every attempt of a call to a leaf that takes one, and
// retries it, so that a POST whose first answer was lost creates one record.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { ClientError, createClient, createFetch, toClientManifest } from "@ramify/api/http";
import { createClientFromManifest } from "@ramify/api/client";
import { retry } from "@ramify/api/http/extensions/retry";
import { timeout } from "@ramify/api/http/extensions/timeout";
import { withServer } from "../support/server.ts";

function shop(hold?: Promise<void>) {
  const records: string[] = [];
  const tree = api({
    orders: op(
      async ({ item }: { item: string }) => {
        records.push(item);
        await hold;
        return { id: records.length, item };
      },
      http.post,
      { input: z.object({ item: z.string() }), http: { idempotencyKey: "required" } },
    ),
    notes: op(
      ({ text }: { text: string }) => {
        records.push(text);
        return { id: records.length };
      },
      http.post,
      { input: z.object({ text: z.string() }) },
    ),
  });
  return { tree, records };
}

/**
 * The router behind a front that loses the first answer: the leaf has run
 * and its answer is kept, but the client sees a 502, as from a proxy whose
 * upstream connection broke.
 */
function losingFirstAnswer(handler: (request: Request) => Promise<Response>) {
  const keys: (string | null)[] = [];
  let lost = false;
  const front = async (request: Request) => {
    keys.push(request.headers.get("idempotency-key"));
    const response = await handler(request);
    if (lost) return response;
    lost = true;
    await response.body?.cancel();
    return new Response("upstream gone", { status: 502 });
  };
  return { front, keys };
}

Deno.test("retry: a keyed POST whose first answer is lost is sent again with its key: one record", async () => {
  const { tree, records } = shop();
  const { front, keys } = losingFirstAnswer(createFetch(tree));
  await withServer(front, async (base) => {
    const client = createClient(tree, { baseUrl: base, extensions: [retry({ baseDelay: 1 })] });
    assert.deepEqual(await client.orders({ item: "tea" }), { id: 1, item: "tea" });
    assert.deepEqual(records, ["tea"]);
    assert.equal(keys.length, 2);
    assert.match(keys[0]!, /^"[0-9a-f-]{36}"$/);
    assert.equal(keys[1], keys[0]);
    // The next call is another operation: a key of its own.
    await client.orders({ item: "tea" });
    assert.equal(keys.length, 3);
    assert.notEqual(keys[2], keys[0]);
    assert.deepEqual(records, ["tea", "tea"]);
  });
});

Deno.test("retry: a keyed POST cut short by a timeout meets 409 while it runs, then its answer", async () => {
  // The first run holds until the server has answered a retry 409.
  let conflicted = () => {};
  const { tree, records } = shop(new Promise((resolve) => conflicted = resolve));
  const statuses: number[] = [];
  const handler = createFetch(tree);
  const front = async (request: Request) => {
    const response = await handler(request);
    statuses.push(response.status);
    if (response.status === 409) conflicted();
    return response;
  };
  await withServer(front, async (base) => {
    const client = createClient(tree, {
      baseUrl: base,
      extensions: [retry({ attempts: 10, baseDelay: 1, maxDelay: 100 }), timeout({ ms: 50 })],
    });
    assert.deepEqual(await client.orders({ item: "tea" }), { id: 1, item: "tea" });
    assert.deepEqual(records, ["tea"]);
    assert.ok(statuses.includes(409), String(statuses));
  });
});

Deno.test("retry: a POST that takes no key is still not retried", async () => {
  const { tree, records } = shop();
  const { front, keys } = losingFirstAnswer(createFetch(tree));
  await withServer(front, async (base) => {
    const client = createClient(tree, { baseUrl: base, extensions: [retry({ baseDelay: 1 })] });
    const error = await client.notes({ text: "hi" }).catch((e: unknown) => e);
    assert.ok(error instanceof ClientError && error.status === 502);
    assert.deepEqual(keys, [null]);
    assert.deepEqual(records, ["hi"]);
  });
});

Deno.test("retry: a key the caller gives is the one sent, on every attempt", async () => {
  const { tree } = shop();
  const { front, keys } = losingFirstAnswer(createFetch(tree));
  await withServer(front, async (base) => {
    const client = createClient(tree, { baseUrl: base, extensions: [retry({ baseDelay: 1 })] });
    await client.orders({ item: "tea" }, { headers: { "idempotency-key": '"order-42"' } });
    assert.deepEqual(keys, ['"order-42"', '"order-42"']);
  });
});

Deno.test("the manifest says which operations take a key; a wrong value is refused", () => {
  const { tree } = shop();
  const manifest = toClientManifest(tree);
  const byPath = new Map(manifest.operations.map((o) => [o.path, o]));
  assert.equal(byPath.get("/orders")?.idempotencyKey, "required");
  assert.equal("idempotencyKey" in byPath.get("/notes")!, false);
  const wrong = {
    manifest: 1,
    operations: [{ ...byPath.get("/orders")!, idempotencyKey: "sometimes" }],
  };
  assert.throws(
    () => createClientFromManifest(wrong as never),
    /operation 0: idempotencyKey/,
  );
});
