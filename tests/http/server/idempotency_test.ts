// Idempotency-Key on the router, over the network: a keyed POST runs once and
// its answer is replayed; the draft's 400, 409 and 422; faults not kept; a
// store out of reach fails closed; leaves without the opt-in untouched.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, HttpError, LeafError, op, use } from "../../../tree/mod.ts";
import { http } from "../../../http/verbs.ts";
import {
  createFetch,
  type IdempotencyStore,
  memoryIdempotency,
  toOpenApi,
} from "../../../http/mod.ts";
import { withServer } from "../../support/server.ts";
import { auth } from "../../../mod.ts";

const order = z.object({ item: z.string() });

function shop() {
  const runs = { create: 0, plain: 0, slow: 0, flaky: 0, refuse: 0 };
  let release = () => {};
  const gate = new Promise<void>((resolve) => release = resolve);
  const tree = api({
    orders: api({
      create: op(
        ({ item }: { item: string }) => {
          runs.create++;
          return { id: runs.create, item };
        },
        http.post,
        { input: order, http: { idempotencyKey: "required", status: 201 } },
      ),
      maybe: op(({ item }: { item: string }) => ({ item, at: runs.create++ }), http.post, {
        input: order,
        http: { idempotencyKey: "optional" },
      }),
      plain: op(() => ({ n: ++runs.plain }), http.post),
      slow: op(
        async () => {
          runs.slow++;
          await gate;
          return { done: true };
        },
        http.post,
        { http: { idempotencyKey: "required" } },
      ),
      flaky: op(
        () => {
          if (++runs.flaky === 1) throw new Error("crash");
          return { n: runs.flaky };
        },
        http.post,
        { http: { idempotencyKey: "required" } },
      ),
      refuse: op(
        () => {
          runs.refuse++;
          throw new LeafError("SOLD_OUT");
        },
        http.post,
        {
          http: { idempotencyKey: "required" },
          errors: { SOLD_OUT: { status: 409, message: "Sold out" } },
        },
      ),
      busy: op(
        () => {
          throw new HttpError(429, "later");
        },
        http.post,
        { http: { idempotencyKey: "required" } },
      ),
    }),
  });
  return { tree, runs, release };
}

const post = (url: string, key: string | undefined, body: unknown = { item: "tea" }) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(key === undefined ? {} : { "idempotency-key": key }),
    },
    body: JSON.stringify(body),
  });

Deno.test("a retry with the key and the same body gets the first answer; the leaf runs once", async () => {
  const { tree, runs } = shop();
  await withServer(createFetch(tree), async (base) => {
    const first = await post(`${base}/orders/create`, '"k-1"');
    assert.deepEqual(first.status, 201);
    assert.deepEqual(first.headers.get("idempotent-replayed"), null);
    assert.deepEqual(await first.json(), { id: 1, item: "tea" });
    const again = await post(`${base}/orders/create`, '"k-1"');
    assert.deepEqual(again.status, 201);
    assert.deepEqual(again.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(again.headers.get("content-type"), "application/json");
    assert.deepEqual(await again.json(), { id: 1, item: "tea" });
    // The bare form names the same key as the draft's quoted one.
    assert.deepEqual(await (await post(`${base}/orders/create`, "k-1")).json(), {
      id: 1,
      item: "tea",
    });
    const other = await post(`${base}/orders/create`, '"k-2"');
    assert.deepEqual(await other.json(), { id: 2, item: "tea" });
    assert.deepEqual(runs.create, 2);
  });
});

Deno.test("the key again with another body, path or query is 422, and nothing runs", async () => {
  const { tree, runs } = shop();
  await withServer(createFetch(tree), async (base) => {
    await (await post(`${base}/orders/create`, '"k"')).body?.cancel();
    for (
      const response of [
        await post(`${base}/orders/create`, '"k"', { item: "coffee" }),
        await post(`${base}/orders/create?x=1`, '"k"'),
        await post(`${base}/orders/maybe`, '"k"'),
      ]
    ) {
      assert.deepEqual(response.status, 422);
      assert.deepEqual(response.headers.get("content-type"), "application/problem+json");
      assert.deepEqual((await response.json()).code, "IDEMPOTENCY_KEY_REUSED");
    }
    assert.deepEqual(runs.create, 1);
  });
});

Deno.test("the key again while its first request runs is 409 with Retry-After; then the answer", async () => {
  const { tree, runs, release } = shop();
  await withServer(createFetch(tree), async (base) => {
    const first = post(`${base}/orders/slow`, '"s"');
    while (runs.slow === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const during = await post(`${base}/orders/slow`, '"s"');
    assert.deepEqual(during.status, 409);
    assert.deepEqual(during.headers.get("retry-after"), "1");
    assert.deepEqual((await during.json()).code, "IDEMPOTENCY_KEY_IN_USE");
    release();
    assert.deepEqual(await (await first).json(), { done: true });
    const after = await post(`${base}/orders/slow`, '"s"');
    assert.deepEqual(after.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(await after.json(), { done: true });
    assert.deepEqual(runs.slow, 1);
  });
});

Deno.test("concurrent requests with one key run the leaf once", async () => {
  const { tree, runs } = shop();
  await withServer(createFetch(tree), async (base) => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(`${base}/orders/create`, '"race"')),
    );
    const statuses = await Promise.all(
      answers.map(async (r) => (await r.body?.cancel(), r.status)),
    );
    assert.deepEqual(runs.create, 1);
    assert.ok(statuses.every((status) => status === 201 || status === 409), String(statuses));
  });
});

Deno.test("a required key missing, or not a key, is 400 and nothing runs", async () => {
  const { tree, runs } = shop();
  await withServer(createFetch(tree), async (base) => {
    const missing = await post(`${base}/orders/create`, undefined);
    assert.deepEqual(missing.status, 400);
    assert.deepEqual((await missing.json()).code, "IDEMPOTENCY_KEY_MISSING");
    const hostile = [
      '""',
      "x".repeat(256),
      `"${"x".repeat(256)}"`,
      '"a", "b"',
      "a,b",
      '"unterminated',
      '"bad \\escape"',
      '"tab\there"',
      "caf\u00e9",
      '"a"b',
    ];
    for (const key of hostile) {
      const response = await rawPost(base, "/orders/create", key);
      assert.deepEqual(response.status, 400, key);
      assert.deepEqual((await response.json()).code, "IDEMPOTENCY_KEY_INVALID", key);
    }
    // Duplicated header lines arrive joined by a comma: two keys, refused.
    const twice = new Headers([["idempotency-key", '"a"'], ["idempotency-key", '"b"']]);
    twice.set("content-type", "application/json");
    const both = await fetch(`${base}/orders/create`, {
      method: "POST",
      headers: twice,
      body: "{}",
    });
    assert.deepEqual(both.status, 400);
    await both.body?.cancel();
    // The longest key taken, escapes included.
    const longest = await post(`${base}/orders/create`, `"${"y".repeat(253)}\\""`);
    assert.deepEqual(longest.status, 201);
    await longest.body?.cancel();
    assert.deepEqual(runs.create, 1);
  });
});

/** A POST written by hand, so that a header may hold what fetch would refuse. */
async function rawPost(base: string, path: string, key: string): Promise<Response> {
  const { hostname, port } = new URL(base);
  const connection = await Deno.connect({ hostname, port: Number(port) });
  const body = '{"item":"tea"}';
  const head = `POST ${path} HTTP/1.1\r\nhost: ${hostname}\r\nconnection: close\r\n` +
    `content-type: application/json\r\ncontent-length: ${body.length}\r\n`;
  const bytes = new Uint8Array([
    ...new TextEncoder().encode(head + "idempotency-key: "),
    ...Array.from(key, (c) => c.charCodeAt(0)),
    ...new TextEncoder().encode(`\r\n\r\n${body}`),
  ]);
  await connection.write(bytes);
  const text = new TextDecoder().decode(
    await new Response(connection.readable).arrayBuffer(),
  );
  const [top, rest] = text.split("\r\n\r\n", 2);
  const status = Number(top.split(" ")[1]);
  const chunked = /transfer-encoding: chunked/i.test(top);
  return new Response(chunked ? unchunk(rest) : rest, { status });
}

function unchunk(text: string): string {
  let out = "";
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf("\r\n", at);
    const size = parseInt(text.slice(at, end), 16);
    if (!(size > 0)) break;
    out += text.slice(end + 2, end + 2 + size);
    at = end + 2 + size + 2;
  }
  return out;
}

Deno.test("a fault is not kept: the retry runs again and its answer is kept", async () => {
  const { tree, runs } = shop();
  await withServer(createFetch(tree, { onError: () => {} }), async (base) => {
    const crashed = await post(`${base}/orders/flaky`, '"f"');
    assert.deepEqual(crashed.status, 500);
    await crashed.body?.cancel();
    assert.deepEqual(await (await post(`${base}/orders/flaky`, '"f"')).json(), { n: 2 });
    const replayed = await post(`${base}/orders/flaky`, '"f"');
    assert.deepEqual(replayed.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(await replayed.json(), { n: 2 });
    assert.deepEqual(runs.flaky, 2);
  });
});

Deno.test("a declared error is kept and replayed; a 429 is not kept", async () => {
  const { tree, runs } = shop();
  await withServer(createFetch(tree), async (base) => {
    for (let i = 0; i < 2; i++) {
      const response = await post(`${base}/orders/refuse`, '"r"');
      assert.deepEqual(response.status, 409);
      assert.deepEqual((await response.json()).code, "SOLD_OUT");
      assert.deepEqual(response.headers.get("idempotent-replayed"), i === 0 ? null : "true");
    }
    assert.deepEqual(runs.refuse, 1);
    for (let i = 0; i < 2; i++) {
      const response = await post(`${base}/orders/busy`, '"b"');
      assert.deepEqual(response.status, 429);
      assert.deepEqual(response.headers.get("idempotent-replayed"), null);
      await response.body?.cancel();
    }
  });
});

Deno.test("an optional key: without one every request runs; with one it is replayed", async () => {
  const { tree, runs } = shop();
  await withServer(createFetch(tree), async (base) => {
    await (await post(`${base}/orders/maybe`, undefined)).body?.cancel();
    await (await post(`${base}/orders/maybe`, undefined)).body?.cancel();
    assert.deepEqual(runs.create, 2);
    const first = await (await post(`${base}/orders/maybe`, '"m"')).json();
    assert.deepEqual(await (await post(`${base}/orders/maybe`, '"m"')).json(), first);
    assert.deepEqual(runs.create, 3);
  });
});

Deno.test("a leaf without the opt-in ignores the header: every request runs", async () => {
  const { tree, runs } = shop();
  await withServer(createFetch(tree), async (base) => {
    for (let i = 1; i <= 3; i++) {
      const response = await post(`${base}/orders/plain`, '"same"');
      assert.deepEqual(await response.json(), { n: i });
      assert.deepEqual(response.headers.get("idempotent-replayed"), null);
    }
    assert.equal(runs.plain, 3);
  });
});

Deno.test("a store out of reach fails closed: 503 and the leaf does not run", async () => {
  const { tree, runs } = shop();
  const down: IdempotencyStore = {
    claim: () => Promise.reject(new Error("ECONNREFUSED")),
    complete: () => Promise.reject(new Error("ECONNREFUSED")),
    release: () => Promise.reject(new Error("ECONNREFUSED")),
  };
  await withServer(createFetch(tree, { idempotency: down }), async (base) => {
    const response = await post(`${base}/orders/create`, '"d"');
    assert.deepEqual(response.status, 503);
    assert.deepEqual((await response.json()).code, "IDEMPOTENCY_KEY_UNAVAILABLE");
    // A leaf that does not take a key does not need the store.
    assert.deepEqual((await post(`${base}/orders/plain`, '"d"')).status, 200);
    assert.deepEqual(runs.create, 0);
  });
});

Deno.test("a body over the limit is 413 before the key is claimed", async () => {
  const { tree, runs } = shop();
  const store = memoryIdempotency();
  await withServer(createFetch(tree, { maxBodyBytes: 64, idempotency: store }), async (base) => {
    const big = await post(`${base}/orders/create`, '"big"', { item: "x".repeat(100) });
    assert.deepEqual(big.status, 413);
    await big.body?.cancel();
    const small = await post(`${base}/orders/create`, '"big"', { item: "x" });
    assert.deepEqual(small.status, 201);
    await small.body?.cancel();
    assert.deepEqual(runs.create, 1);
  });
});

Deno.test("the memory store forgets after ttlMs, and holds at most maxEntries", async () => {
  let time = 0;
  const store = memoryIdempotency({ ttlMs: 100, lockMs: 10, maxEntries: 2, now: () => time });
  const answer = { status: 200, headers: [], body: new Uint8Array() };
  assert.deepEqual(await store.claim("a", "fa", "ta"), { state: "claimed" });
  assert.deepEqual(await store.claim("a", "fa", "tb"), { state: "running", fingerprint: "fa" });
  time = 11; // the lock of a run that never finished has lapsed
  assert.deepEqual(await store.claim("a", "fa", "tc"), { state: "claimed" });
  await store.complete("a", "ta", answer); // not the holder's token: ignored
  assert.deepEqual((await store.claim("a", "fa", "td")).state, "running");
  await store.complete("a", "tc", answer);
  assert.deepEqual((await store.claim("a", "fa", "te")).state, "done");
  time = 111;
  assert.deepEqual((await store.claim("a", "fa", "tf")).state, "claimed");
  await store.claim("b", "fb", "tb");
  await store.claim("c", "fc", "tc"); // a third: the oldest goes
  assert.deepEqual((await store.claim("a", "fa", "tg")).state, "claimed");
  await store.release("c", "wrong");
  assert.deepEqual((await store.claim("c", "fc", "th")).state, "running");
  await store.release("c", "tc");
  assert.deepEqual((await store.claim("c", "fc", "ti")).state, "claimed");
  assert.throws(() => memoryIdempotency({ ttlMs: 0 }), RangeError);
});

Deno.test("the opt-in is refused where a key means nothing, when the router is built", () => {
  const cases = [
    op(() => 1, http.put, { http: { idempotencyKey: "required" } }),
    op(() => 1, http.get, { http: { idempotencyKey: "optional" } }),
    op(() => 1, http.post, { tags: { idempotent: true }, http: { idempotencyKey: "optional" } }),
    op(
      async function* () {
        yield 1;
      },
      http.post,
      { tags: { streaming: true }, http: { idempotencyKey: "optional" } },
    ),
    op(() => 1, http.post, { http: { idempotencyKey: "always" as "optional" } }),
  ];
  for (const leaf of cases) {
    assert.throws(() => createFetch(api({ leaf })), /meta\.http\.idempotencyKey/);
  }
});

Deno.test("the document names the header and the 409 and 422 answers", async () => {
  const { tree } = shop();
  const doc = await toOpenApi(tree);
  const create = doc.paths["/orders/create"].post;
  const header = create.parameters?.find((p: { name?: unknown }) => p.name === "Idempotency-Key");
  assert.deepEqual(header?.in, "header");
  assert.deepEqual(header?.required, true);
  assert.ok(create.responses["409"] !== undefined && create.responses["422"] !== undefined);
  const maybe = doc.paths["/orders/maybe"].post;
  assert.deepEqual(
    maybe.parameters?.find((p: { name?: unknown }) => p.name === "Idempotency-Key")?.required,
    false,
  );
  const plain = doc.paths["/orders/plain"].post;
  assert.deepEqual(
    plain.parameters?.some((p: { name?: unknown }) => p.name === "Idempotency-Key") ?? false,
    false,
  );
  assert.deepEqual(plain.responses["409"], undefined);
});

Deno.test("a call its caller left (499) is not kept: the retry runs again", async () => {
  let runs = 0;
  let started = () => {};
  const running = new Promise<void>((resolve) => started = resolve);
  const tree = api({
    wait: op(
      (_input: unknown, ctx) => {
        if (++runs > 1) return { run: runs };
        started();
        return new Promise((_resolve, reject) => {
          ctx.signal?.addEventListener("abort", () => reject(ctx.signal?.reason));
        });
      },
      http.post,
      { http: { idempotencyKey: "required" } },
    ),
  });
  const statuses: number[] = [];
  const handler = createFetch(tree);
  const front = async (request: Request) => {
    const response = await handler(request);
    statuses.push(response.status);
    return response;
  };
  await withServer(front, async (base) => {
    const caller = new AbortController();
    const send = (signal?: AbortSignal) =>
      fetch(`${base}/wait`, { method: "POST", headers: { "idempotency-key": '"w"' }, signal });
    const first = send(caller.signal).catch(() => undefined);
    await running;
    caller.abort();
    await first;
    while (statuses.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(statuses, [499]);
    assert.deepEqual(await (await send()).json(), { run: 2 });
  });
});

Deno.test("idempotency: a key is the principal's: another's same key and request runs anew, a renewed token replays", async () => {
  let runs = 0;
  // The token names its user before the dot: "ann.1" and "ann.2" are one principal.
  const guard = auth({ from: "bearer", verify: (token) => ({ id: token.split(".")[0] }) });
  const tree = api({
    orders: op(({ item }, ctx) => ({ n: ++runs, item, by: ctx.user.id }), use(guard), http.post, {
      input: order,
      http: { idempotencyKey: "required" },
    }),
  });
  await withServer(createFetch(tree), async (base) => {
    const send = async (token: string) => {
      const response = await fetch(`${base}/orders`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "idempotency-key": "k-1",
        },
        body: JSON.stringify({ item: "tea" }),
      });
      return [response.headers.get("idempotent-replayed"), await response.json()];
    };
    assert.deepEqual(await send("ann.1"), [null, { n: 1, item: "tea", by: "ann" }]);
    assert.deepEqual(await send("bob.1"), [null, { n: 2, item: "tea", by: "bob" }]);
    assert.deepEqual(await send("ann.2"), ["true", { n: 1, item: "tea", by: "ann" }]);
    assert.equal(runs, 2);
  });
});
