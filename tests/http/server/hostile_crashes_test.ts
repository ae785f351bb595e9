// Handlers that crash in awkward ways: bare 500s, onError told, the server still up.
import assert from "node:assert/strict";
import {
  assertPrototypeClean,
  type Facts,
  hostileServer,
  jsonOf,
  LEAKS,
  problemOf,
  send,
  THROWN,
} from "./hostile_support.ts";

Deno.test("results that are not JSON are a bare 500, and onError is told", async () => {
  await hostileServer(async (base, errors) => {
    const names = ["bigint", "cyclic", "fn", "symbol", "badJson"];
    for (const name of names) {
      await problemOf(await fetch(`${base}/results/${name}`), 500, name);
    }
    assert.equal(errors.length, names.length);
    for (const error of errors) assert.ok(error instanceof Error);
  });
});

Deno.test("a handler that throws a non-Error value is a bare 500", async () => {
  await hostileServer(async (base, errors) => {
    for (const [name, make] of Object.entries(THROWN)) {
      errors.length = 0;
      await problemOf(await fetch(`${base}/throws/${name}`), 500, name);
      assert.equal(errors.length, 1, name);
      const expected = make();
      if (typeof expected === "symbol") assert.equal(typeof errors[0], "symbol");
      else assert.deepEqual(errors[0], expected, name);
    }
    errors.length = 0;
    await problemOf(await fetch(`${base}/rejects`), 500, "rejects");
    assert.deepEqual(errors, ["secret rejection"]);
  });
});

Deno.test("an onError that throws still gives a bare 500", async () => {
  await hostileServer(async (base) => {
    await problemOf(await fetch(`${base}/throws/string`), 500);
    await problemOf(await fetch(`${base}/results/bigint`), 500);
  }, {
    onError: () => {
      throw new Error("secret observer failure");
    },
  });
});

Deno.test("a streaming handler that throws mid-stream ends with an error event", async () => {
  await hostileServer(async (base, errors) => {
    const crash = await fetch(`${base}/stream/crash`);
    assert.equal(crash.status, 200);
    assert.equal(crash.headers.get("content-type"), "text/event-stream");
    const text = await crash.text();
    for (const leak of LEAKS) assert.doesNotMatch(text, leak);
    assert.equal(
      text,
      "id: 1\ndata: 1\n\nevent: error\n" +
        'data: {"type":"about:blank","title":"Internal Server Error","status":500}\n\n',
    );
    assert.equal(errors.length, 1);
    assert.equal((errors[0] as Error).message, "secret stream failure");

    errors.length = 0;
    const chosen = await (await fetch(`${base}/stream/chosen`)).text();
    assert.equal(
      chosen,
      "id: 1\ndata: 1\n\nevent: error\n" +
        'data: {"type":"about:blank","title":"Conflict","status":409,"detail":"Changed under you"}\n\n',
    );
    assert.deepEqual(errors, [], "an HttpError is the handler's answer, not a crash");

    errors.length = 0;
    const unencodable = await (await fetch(`${base}/stream/unencodable`)).text();
    for (const leak of LEAKS) assert.doesNotMatch(unencodable, leak);
    assert.match(unencodable, /^id: 1\ndata: 1\n\nevent: error\ndata: \{[^\n]*"status":500\}\n\n$/);
    assert.equal(errors.length, 1);

    // Thrown before there is a stream: an ordinary 500.
    errors.length = 0;
    await problemOf(await fetch(`${base}/stream/thrower`), 500);
    assert.equal(errors.length, 1);
  });
});

Deno.test("after every hostile request the server still answers normally", async () => {
  await hostileServer(async (base, errors) => {
    await send(`${base}/echo`, "[".repeat(50_000), "application/json").then((r) =>
      r.body?.cancel()
    );
    await fetch(`${base}/items/%zz/show`).then((r) => r.body?.cancel());
    await fetch(`${base}/results/cyclic`).then((r) => r.body?.cancel());
    await fetch(`${base}/echo`, { method: "constructor" }).then((r) => r.body?.cancel());
    const facts = await jsonOf(await send(`${base}/echo?q=1`, '{"b":2}', "application/json"));
    assert.deepEqual((facts as Facts).keys, ["q", "b"]);
    assert.equal(errors.length, 1);
    assertPrototypeClean();
  });
});
