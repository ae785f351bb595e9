// Prototype-pollution keys in bodies, queries and forms stay own keys.
import assert from "node:assert/strict";
import {
  assertPrototypeClean,
  type Facts,
  hostileServer,
  jsonOf,
  send,
} from "./hostile_support.ts";

Deno.test("__proto__, constructor and prototype keys in a JSON body stay own keys", async () => {
  await hostileServer(async (base, errors) => {
    const body = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},' +
      '"prototype":{"polluted":true},"nested":{"__proto__":{"polluted":true}},' +
      '"list":[{"__proto__":{"polluted":true}}]}';
    const facts = await jsonOf(await send(`${base}/echo?x=1`, body, "application/json")) as Facts;
    assert.deepEqual(facts, {
      keys: ["x", "__proto__", "constructor", "prototype", "nested", "list"],
      symbols: 0,
      accessors: [],
      prototypeIsObject: true,
      prototypesClean: true,
      polluted: null,
      proto: { polluted: true },
    });
    assertPrototypeClean();
    assert.deepEqual(errors, []);
  });
});

Deno.test("__proto__, constructor and prototype keys in the query stay own keys", async () => {
  await hostileServer(async (base, errors) => {
    const query = "__proto__[polluted]=1&__proto__=1&constructor=1" +
      "&constructor[prototype][polluted]=1&prototype=1&__proto__=2&hasOwnProperty=x" +
      "&%5F%5Fproto%5F%5F.polluted=1";
    const facts = await jsonOf(await fetch(`${base}/look?${query}`)) as Facts;
    assert.deepEqual(facts, {
      keys: [
        "__proto__[polluted]",
        "__proto__",
        "constructor",
        "constructor[prototype][polluted]",
        "prototype",
        "hasOwnProperty",
        "__proto__.polluted",
      ],
      symbols: 0,
      accessors: [],
      prototypeIsObject: true,
      prototypesClean: true,
      polluted: null,
      proto: ["1", "2"],
    });
    const single = await jsonOf(await fetch(`${base}/look?__proto__=1`)) as Facts;
    assert.deepEqual(single.keys, ["__proto__"]);
    assert.equal(single.proto, "1");
    assert.equal(single.prototypeIsObject, true);
    assertPrototypeClean();
    assert.deepEqual(errors, []);
  });
});

Deno.test("__proto__ and constructor keys in form bodies stay own keys", async () => {
  await hostileServer(async (base, errors) => {
    const urlencoded = "__proto__=1&constructor=2&__proto__[polluted]=3&prototype=4";
    const fromUrlencoded = await jsonOf(
      await send(`${base}/echo`, urlencoded, "application/x-www-form-urlencoded"),
    ) as Facts;
    assert.deepEqual(fromUrlencoded.keys, [
      "__proto__",
      "constructor",
      "__proto__[polluted]",
      "prototype",
    ]);
    assert.equal(fromUrlencoded.proto, "1");
    assert.equal(fromUrlencoded.prototypeIsObject, true);
    assert.deepEqual(fromUrlencoded.accessors, []);

    const form = new FormData();
    form.append("__proto__", '{"polluted":true}');
    form.append("constructor", "x");
    form.append("toString", "y");
    form.append("__proto__", "again");
    const fromMultipart = await jsonOf(
      await fetch(`${base}/echo`, { method: "POST", body: form }),
    ) as Facts;
    assert.deepEqual(fromMultipart.keys, ["__proto__", "constructor", "toString"]);
    assert.deepEqual(fromMultipart.proto, ['{"polluted":true}', "again"]);
    assert.equal(fromMultipart.prototypeIsObject, true);
    assert.equal(fromMultipart.polluted, null);
    assertPrototypeClean();
    assert.deepEqual(errors, []);
  });
});

Deno.test("pollution keys through a schema: the validated input stays plain", async () => {
  await hostileServer(async (base, errors) => {
    const body = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},' +
      '"name":"n"}';
    const typed = await jsonOf(await send(`${base}/typed`, body, "application/json")) as Facts;
    assert.equal(typed.prototypeIsObject, true);
    assert.equal(typed.prototypesClean, true);
    assert.equal(typed.polluted, null);
    assert.deepEqual(typed.accessors, []);
    assert.ok(typed.keys.includes("name"));

    const filter = encodeURIComponent('{"__proto__":{"polluted":true},"a":1}');
    const shaped = await jsonOf(await fetch(`${base}/shaped?filter=${filter}`)) as Facts & {
      filter: Facts;
    };
    assert.equal(shaped.prototypeIsObject, true);
    assert.equal(shaped.filter.prototypeIsObject, true);
    assert.equal(shaped.filter.polluted, null);
    assert.ok(shaped.filter.keys.includes("a"));
    assertPrototypeClean();
    assert.deepEqual(errors, []);
  });
});
