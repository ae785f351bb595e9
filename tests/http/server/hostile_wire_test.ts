// Hostile requests on the wire: bad percent-encoding, huge paths and queries,
// invalid UTF-8, wrong content types, odd methods.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createFetch } from "@ramify/api/http";
import { asSent } from "./fetch_support.ts";
import {
  type Facts,
  factsOf,
  hostileServer,
  jsonOf,
  problemOf,
  ROUTERS,
  send,
  streamOf,
} from "./hostile_support.ts";

Deno.test("bad percent-encoding in a capture or the query is 400", async () => {
  for (const router of ROUTERS) {
    await hostileServer(async (base, errors) => {
      const bad = ["%E0%A4%A", "%zz", "%", "%C0%AF", "%ED%A0%80", "%FF", "a%2", "%E2%82"];
      for (const raw of bad) {
        const context = `${router.name} ${raw}`;
        await problemOf(await fetch(`${base}/items/${raw}/show`), 400, `path ${context}`);
        await problemOf(await fetch(`${base}/look?a=${raw}`), 400, `value ${context}`);
        await problemOf(await fetch(`${base}/look?${raw}=1`), 400, `key ${context}`);
        await problemOf(
          await send(`${base}/echo`, `a=${raw}`, "application/x-www-form-urlencoded"),
          400,
          `form ${context}`,
        );
      }
      assert.deepEqual(errors, []);
    }, { router });
  }
});

Deno.test("very long paths: 404 or a long capture, never a crash", async () => {
  for (const router of ROUTERS) {
    await hostileServer(async (base, errors) => {
      const long = "a".repeat(16 * 1024);
      await problemOf(await fetch(`${base}/${long}`), 404, `${router.name} one long segment`);
      await problemOf(await fetch(`${base}/${"a/".repeat(2000)}a`), 404, "2000 segments");
      await problemOf(await fetch(`${base}/items/${"x/".repeat(2000)}show`), 404, "deep capture");
      await problemOf(await fetch(`${base}/items/x/show/${"x/".repeat(2000)}`), 404, "deep tail");
      await problemOf(await fetch(`${base}/${"/".repeat(2000)}`), 404, "empty segments");
      const id = await jsonOf(await fetch(`${base}/items/${long}/show`)) as Facts;
      assert.deepEqual(id.keys, ["id"]);
      const encoded = await jsonOf(await fetch(`${base}/items/${"%41".repeat(5000)}/show`));
      assert.deepEqual((encoded as Facts).keys, ["id"]);
      assert.deepEqual(errors, []);
    }, { router });
  }
});

Deno.test("many query keys: over maxParams is 400, under it is fine", async () => {
  await hostileServer(async (base, errors) => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i.toString(36)}`);
    await problemOf(await fetch(`${base}/look?${keys(10_000).join("&")}`), 400, "10k keys");
    await problemOf(await fetch(`${base}/look?${"a=1&".repeat(10_000)}`), 400, "10k repeats");
    await problemOf(await fetch(`${base}/look?${keys(257).join("&")}`), 400, "257 keys");
    const fine = await jsonOf(await fetch(`${base}/look?${keys(200).join("=1&")}=1`)) as Facts;
    assert.equal(fine.keys.length, 200);
    const limit = await jsonOf(await fetch(`${base}/look?${keys(256).join("&")}`)) as Facts;
    assert.equal(limit.keys.length, 256);
    // Empty pairs are not parameters.
    assert.deepEqual(
      (await jsonOf(await fetch(`${base}/look?${"&".repeat(5000)}a=1`)) as Facts).keys,
      [
        "a",
      ],
    );

    const manyFields = keys(10_000).map((k) => `${k}=1`).join("&");
    await problemOf(
      await send(`${base}/echo`, manyFields, "application/x-www-form-urlencoded"),
      400,
      "10k form fields",
    );
    const form = new FormData();
    for (const key of keys(300)) form.append(key, "1");
    await problemOf(await fetch(`${base}/echo`, { method: "POST", body: form }), 400, "multipart");
    assert.deepEqual(errors, []);
  });
  const tree = api({ look: op(factsOf, http.get, { input: asSent }) });
  await withServer(createFetch(tree, { maxParams: 5 }), async (base) => {
    await problemOf(await fetch(`${base}/look?a&b&c&d&e&f`), 400);
    assert.equal((await jsonOf(await fetch(`${base}/look?a&b&c&d&e`)) as Facts).keys.length, 5);
  });
});

Deno.test("invalid UTF-8 in a body is 400", async () => {
  await hostileServer(async (base, errors) => {
    const bodies: [string, number[]][] = [
      ["lone byte", [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]],
      ["overlong", [0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d]],
      ["surrogate", [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]],
      ["truncated", [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d]],
    ];
    for (const [name, bytes] of bodies) {
      const body = new Uint8Array(bytes);
      await problemOf(await send(`${base}/echo`, body, "application/json"), 400, `json ${name}`);
      await problemOf(
        await send(`${base}/echo`, streamOf([body.slice(0, 3), body.slice(3)]), "application/json"),
        400,
        `streamed json ${name}`,
      );
      await problemOf(
        await send(`${base}/echo`, body, "application/x-www-form-urlencoded"),
        400,
        `form ${name}`,
      );
    }
    assert.deepEqual(errors, []);
  });
});

Deno.test("U+FFFD in a JSON body is 400, sent as is or escaped, by length or streamed", async () => {
  await hostileServer(async (base, errors) => {
    // A lenient read turns a byte that is not UTF-8 into U+FFFD: the client's
    // own cannot be told from it.
    const bodies = [
      '{"a":"\uFFFD"}',
      '{"a":"\\ufffd"}',
      '{"\uFFFD":1}',
      '{"a":[{"b":["x\\uFFFDy"]}]}',
    ];
    for (const body of bodies) {
      const problem = await problemOf(
        await send(`${base}/echo`, body, "application/json"),
        400,
        body,
      );
      assert.match(String(problem.detail), /U\+FFFD/, body);
      await problemOf(
        await send(`${base}/echo`, streamOf([body.slice(0, 2), body.slice(2)]), "application/json"),
        400,
        `streamed ${body}`,
      );
    }
    // A form has no such rule: its strict decoding tells the two apart.
    const form = await jsonOf(
      await send(`${base}/echo`, "a=%EF%BF%BD", "application/x-www-form-urlencoded"),
    );
    assert.deepEqual((form as Facts).keys, ["a"]);
    assert.deepEqual(errors, []);
  });
});

Deno.test("a body with a wrong or absent Content-Type is 415 or 400", async () => {
  await hostileServer(async (base, errors) => {
    const json = '{"a":1}';
    for (const type of ["text/plain", "application/xml", "text/json", ";;;", "application/jsonx"]) {
      const response = await send(`${base}/echo`, json, type);
      assert.ok(response.headers.get("accept-post")?.includes("application/json"), type);
      await problemOf(response, 415, type);
    }
    // No Content-Type at all.
    await problemOf(await send(`${base}/echo`, new TextEncoder().encode(json)), 415, "absent");
    // A type that does not match the bytes.
    await problemOf(await send(`${base}/echo`, "a=1&b=2", "application/json"), 400, "form as json");
    await problemOf(await send(`${base}/echo`, "a=1", "multipart/form-data"), 400, "no boundary");
    await problemOf(
      await send(`${base}/echo`, "garbage", "multipart/form-data; boundary=xyz"),
      400,
      "bad multipart",
    );
    // Type names are case-insensitive and may carry parameters.
    const upper = await jsonOf(await send(`${base}/echo`, json, "Application/JSON; charset=UTF-8"));
    assert.deepEqual((upper as Facts).keys, ["a"]);
    assert.deepEqual(errors, []);
  });
});

Deno.test("unknown and prototype-named methods are 405 with Allow", async () => {
  for (const router of ROUTERS) {
    await hostileServer(async (base, errors) => {
      const methods = [
        "PROPFIND",
        "constructor",
        "__proto__",
        "hasOwnProperty",
        "toString",
        "valueOf",
        "FOO",
        // Only the six standard names are case-normalised; "patch" is its own method.
        "patch",
      ];
      for (const method of methods) {
        const response = await fetch(`${base}/echo`, { method });
        assert.equal(response.headers.get("allow"), "POST, OPTIONS", method);
        await problemOf(response, 405, `${router.name} ${method}`);
        const withBody = await fetch(`${base}/look`, { method, body: "{}" });
        assert.equal(withBody.headers.get("allow"), "GET, HEAD, OPTIONS", method);
        await problemOf(withBody, 405, `${router.name} ${method} with a body`);
        await problemOf(await fetch(`${base}/nowhere`, { method }), 404, `${method} nowhere`);
      }
      assert.deepEqual(errors, []);
    }, { router });
  }
});
