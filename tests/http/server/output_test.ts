// The output schema on the HTTP wire: the parsed value is sent (unknown keys
// stripped), a result that breaks it is a 500 problem with nothing of the
// result in it and is reported to onError, and a stream is checked per event.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { OutputError } from "@ramify/api/tree/catalogue";
import { createFetch } from "@ramify/api/http";
import { http } from "@ramify/api/http/verbs";
import { withServer } from "../../support/server.ts";

const User = z.object({ id: z.string(), name: z.string() });
type UserIn = z.input<typeof User>;

const tree = api({
  me: op(() => ({ id: "7", name: "Ann", passwordHash: "x" }), http.get, { output: User }),
  broken: op(() => ({ id: 7, passwordHash: "x" }) as unknown as UserIn, http.get, {
    output: User,
  }),
  feed: op(async function* () {
    yield { id: "1", name: "Ann", passwordHash: "x" };
    yield { id: 2, passwordHash: "x" } as unknown as UserIn;
  }, { tags: { streaming: true }, output: User }),
});

Deno.test("HTTP: the output schema's value is sent; a violation is a 500 reported to onError", async () => {
  const reported: unknown[] = [];
  const handler = createFetch(tree, { onError: (error) => reported.push(error) });
  await withServer(handler, async (base) => {
    const me = await fetch(`${base}/me`);
    assert.equal(me.status, 200);
    assert.deepEqual(await me.json(), { id: "7", name: "Ann" });

    const head = await fetch(`${base}/me`, { method: "HEAD" });
    assert.equal(head.headers.get("content-length"), String('{"id":"7","name":"Ann"}'.length));
    await head.body?.cancel();
    assert.equal(reported.length, 0);

    const broken = await fetch(`${base}/broken`);
    assert.equal(broken.status, 500);
    assert.equal(broken.headers.get("content-type"), "application/problem+json");
    const text = await broken.text();
    assert.deepEqual(JSON.parse(text), {
      type: "about:blank",
      title: "Internal Server Error",
      status: 500,
    });
    assert.ok(!text.includes("passwordHash") && !text.includes("issues"));
    assert.equal(reported.length, 1);
    assert.ok(reported[0] instanceof OutputError);
  });
});

Deno.test("HTTP: a stream's events are shaped by the output schema; a bad item ends it with an error event", async () => {
  const reported: unknown[] = [];
  await withServer(createFetch(tree, { onError: (e) => reported.push(e) }), async (base) => {
    const response = await fetch(`${base}/feed`, { method: "POST" });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    const events = (await response.text()).split("\n\n").filter((block) => block !== "");
    assert.deepEqual(events, [
      'id: 1\ndata: {"id":"1","name":"Ann"}',
      'event: error\ndata: {"type":"about:blank","title":"Internal Server Error","status":500}',
    ]);
    assert.equal(reported.length, 1);
    assert.ok(reported[0] instanceof OutputError);
  });
});
