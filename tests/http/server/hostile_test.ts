// Hostile input over a real server: malformed and oversized bodies, deep
// nesting, prototype-pollution keys, bad percent-encoding, huge paths and
// queries, odd methods, and handlers that crash in awkward ways. Every answer
// must be a deliberate status (never a 5xx unless a crash is the point), every
// error a problem+json body, and no body may carry an internal message or stack.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import {
  compiledCharRouter,
  createFetch,
  type CreateFetchOptions,
  HttpError,
  radixRouter,
  toRouter,
} from "@ramify/api/http";

const ROUTERS = [toRouter, radixRouter, compiledCharRouter] as const;
const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

/** Words that only an internal error or a stack trace would put in a body. */
const LEAKS = [
  /secret/i,
  /\bat .*:\d+:\d+/,
  /\.ts\b/,
  /TypeError|RangeError|SyntaxError/,
  /BigInt/i,
];

/** Nothing reached Object.prototype. */
function assertPrototypeClean(): void {
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), PROTOTYPE_KEYS);
}

/** Asserts a problem+json answer with `status` that leaks nothing; returns its body. */
async function problemOf(
  response: Response,
  status: number,
  context = "",
): Promise<Record<string, unknown>> {
  const text = await response.text();
  assert.equal(response.status, status, `${context}: ${text.slice(0, 300)}`);
  assert.equal(response.headers.get("content-type"), "application/problem+json", context);
  for (const leak of LEAKS) assert.doesNotMatch(text, leak, context);
  const body = JSON.parse(text);
  assert.equal(body.type, "about:blank", context);
  assert.equal(body.status, status, context);
  assert.equal(typeof body.title, "string", context);
  if (status >= 500) assert.equal(body.detail, undefined, context);
  return body;
}

/** Asserts a 200 JSON answer; returns its value. */
async function jsonOf(response: Response, context = ""): Promise<unknown> {
  const text = await response.text();
  assert.equal(response.status, 200, `${context}: ${text.slice(0, 300)}`);
  assert.equal(response.headers.get("content-type"), "application/json", context);
  return JSON.parse(text);
}

function send(url: string, body: BodyInit, contentType?: string, method = "POST") {
  return fetch(url, {
    method,
    body,
    headers: contentType === undefined ? {} : { "content-type": contentType },
  });
}

/** What a handler can observe about its input object. */
interface Facts {
  keys: string[];
  symbols: number;
  accessors: string[];
  prototypeIsObject: boolean;
  prototypesClean: boolean;
  polluted: unknown;
  proto: unknown;
}

function factsOf(input: Record<string, unknown>): Facts {
  const names = Object.getOwnPropertyNames(input);
  return {
    keys: names,
    symbols: Object.getOwnPropertySymbols(input).length,
    accessors: names.filter((name) => !("value" in Object.getOwnPropertyDescriptor(input, name)!)),
    prototypeIsObject: Object.getPrototypeOf(input) === Object.prototype,
    prototypesClean: prototypesClean(input),
    polluted: input.polluted ?? null,
    proto: Object.hasOwn(input, "__proto__") ? input["__proto__"] : null,
  };
}

/** Every object reachable from `value` is a plain object or array with the standard prototype. */
function prototypesClean(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== "object" || current === null || current instanceof File) continue;
    const proto = Object.getPrototypeOf(current);
    if (proto !== Object.prototype && proto !== Array.prototype) return false;
    stack.push(...Object.values(current));
  }
  return true;
}

/** A thrown value for every kind a handler might throw. */
const THROWN: Record<string, () => unknown> = {
  string: () => "secret string",
  number: () => 42,
  null: () => null,
  undefined: () => undefined,
  object: () => ({ secret: "object" }),
  symbol: () => Symbol("secret"),
  array: () => ["secret"],
};

function hostileTree() {
  const throwers: Record<string, ReturnType<typeof op>> = {};
  for (const [name, make] of Object.entries(THROWN)) {
    throwers[name] = op((): unknown => {
      throw make();
    }, http.get);
  }
  return api({
    echo: op(factsOf),
    look: op(factsOf, http.get),
    typed: op(factsOf, { input: z.looseObject({ name: z.string().optional() }) }),
    shaped: op((input) => ({ ...factsOf(input), filter: factsOf(input.filter ?? {}) }), http.get, {
      input: z.object({ filter: z.looseObject({}).optional() }),
    }),
    items: api({}, {
      fallback: { name: "id", subtree: api({ show: op(factsOf, http.get) }) },
    }),
    results: api({
      bigint: op(() => ({ secret: 1n }), http.get),
      cyclic: op(() => {
        const value: Record<string, unknown> = { secret: "cyclic" };
        value.self = value;
        return value;
      }, http.get),
      fn: op(() => () => "secret function", http.get),
      symbol: op(() => Symbol("secret"), http.get),
      badJson: op(() => ({
        toJSON() {
          throw new Error("secret toJSON");
        },
      }), http.get),
    }),
    throws: api(throwers),
    rejects: op(() => Promise.reject("secret rejection"), http.get),
    stream: api({
      crash: op(async function* () {
        yield 1;
        throw new Error("secret stream failure");
      }, { tags: { readOnly: true, streaming: true } }),
      chosen: op(async function* () {
        yield 1;
        throw new HttpError(409, "Changed under you");
      }, { tags: { readOnly: true, streaming: true } }),
      unencodable: op(async function* () {
        yield 1;
        yield 2n;
      }, { tags: { readOnly: true, streaming: true } }),
      thrower: op((): AsyncIterable<unknown> => {
        throw new Error("secret before the stream");
      }, { tags: { readOnly: true, streaming: true } }),
    }),
  });
}

function hostileServer(
  run: (base: string, errors: unknown[]) => Promise<void>,
  opts: CreateFetchOptions = {},
): Promise<void> {
  const errors: unknown[] = [];
  const handler = createFetch(hostileTree(), {
    onError: (error) => errors.push(error),
    ...opts,
  });
  return withServer(handler, (base) => run(base, errors));
}

Deno.test("malformed JSON bodies are 400", async () => {
  await hostileServer(async (base, errors) => {
    const bodies = [
      "{",
      '{"a":}',
      "{'a':1}",
      '{"a":1}}',
      '{"a":1,}',
      "nul",
      "{\u0000}",
      '{"a":"\\x"}',
      '{"a":1} trailing',
      "\ufeff\ufeff{}",
      "}{",
    ];
    for (const body of bodies) {
      await problemOf(await send(`${base}/echo`, body, "application/json"), 400, body);
    }
    assert.deepEqual(errors, []);
  });
});

Deno.test("a JSON body that is not an object is 400", async () => {
  await hostileServer(async (base, errors) => {
    for (const body of ["[]", "[1,2]", '"str"', "42", "-0.5", "null", "true", "false"]) {
      await problemOf(await send(`${base}/echo`, body, "application/json"), 400, body);
    }
    // A byte-order mark before an object is fine.
    const facts = await jsonOf(await send(`${base}/echo`, '\ufeff{"a":1}', "application/json"));
    assert.deepEqual((facts as Facts).keys, ["a"]);
    assert.deepEqual(errors, []);
  });
});

Deno.test("oversized bodies are 413, with and without Content-Length", async () => {
  await hostileServer(async (base, errors) => {
    const big = JSON.stringify({ pad: "x".repeat(1024 * 1024) });
    await problemOf(await send(`${base}/echo`, big, "application/json"), 413, "declared");
    await problemOf(await send(`${base}/echo`, big, "text/plain"), 413, "declared, wrong type");

    // Chunked: no Content-Length, 2 MiB in 64 KiB chunks.
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 32) controller.enqueue(chunk);
        else controller.close();
      },
    });
    await problemOf(await send(`${base}/echo`, stream, "application/json"), 413, "streamed");

    // A form over the limit too.
    const form = new URLSearchParams({ pad: "x".repeat(1024 * 1024 + 1) });
    await problemOf(await send(`${base}/echo`, form), 413, "form");
    assert.deepEqual(errors, []);
  });
});

Deno.test("a streamed body over a small limit is 413; under it is read", async () => {
  const tree = api({ echo: op(factsOf) });
  await withServer(createFetch(tree, { maxBodyBytes: 1024 }), async (base) => {
    const encoder = new TextEncoder();
    const streamOf = (parts: string[]) => ReadableStream.from(parts.map((p) => encoder.encode(p)));
    const over = streamOf(['{"a":"', ...Array.from({ length: 20 }, () => "y".repeat(64)), '"}']);
    await problemOf(await send(`${base}/echo`, over, "application/json"), 413);
    const under = streamOf(['{"a":', '"', "y".repeat(900), '"', "}"]);
    assert.deepEqual(
      (await jsonOf(await send(`${base}/echo`, under, "application/json")) as Facts).keys,
      [
        "a",
      ],
    );
  });
});

Deno.test("deeply nested JSON is 400, not a crash", async () => {
  await hostileServer(async (base, errors) => {
    const levels = 100_000;
    const bodies = [
      "[".repeat(levels) + "]".repeat(levels),
      '{"a":'.repeat(levels) + "1" + "}".repeat(levels),
      '{"a":' + "[".repeat(levels) + "]".repeat(levels) + "}",
      '{"a":[' + '{"b":['.repeat(levels / 2) + "]}".repeat(levels / 2) + "]}",
      "[".repeat(levels),
      '{"a":'.repeat(levels),
    ];
    for (const body of bodies) {
      await problemOf(
        await send(`${base}/echo`, body, "application/json"),
        400,
        body.slice(0, 12),
      );
    }
    // Up to the limit (64 levels, the root included) is fine.
    const ok = '{"a":'.repeat(64) + "1" + "}".repeat(64);
    assert.deepEqual(
      (await jsonOf(await send(`${base}/echo`, ok, "application/json")) as Facts).keys,
      [
        "a",
      ],
    );
    const tooDeep = '{"a":'.repeat(65) + "1" + "}".repeat(65);
    await problemOf(await send(`${base}/echo`, tooDeep, "application/json"), 400);

    // A query value read as JSON by a schema is held to the same depth.
    const deepQuery = "[".repeat(20_000) + "]".repeat(20_000);
    await problemOf(await fetch(`${base}/shaped?filter=${deepQuery}`), 400, "query");
    assert.deepEqual(errors, []);
  });
});

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
  const tree = api({ look: op(factsOf, http.get) });
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
        await send(`${base}/echo`, body, "application/x-www-form-urlencoded"),
        400,
        `form ${name}`,
      );
    }
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
      "data: 1\n\nevent: error\n" +
        'data: {"type":"about:blank","title":"Internal Server Error","status":500}\n\n',
    );
    assert.equal(errors.length, 1);
    assert.equal((errors[0] as Error).message, "secret stream failure");

    const chosen = await (await fetch(`${base}/stream/chosen`)).text();
    assert.equal(
      chosen,
      "data: 1\n\nevent: error\n" +
        'data: {"type":"about:blank","title":"Conflict","status":409,"detail":"Changed under you"}\n\n',
    );

    errors.length = 0;
    const unencodable = await (await fetch(`${base}/stream/unencodable`)).text();
    for (const leak of LEAKS) assert.doesNotMatch(unencodable, leak);
    assert.match(unencodable, /^data: 1\n\nevent: error\ndata: \{[^\n]*"status":500\}\n\n$/);
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
