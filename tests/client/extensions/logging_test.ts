// Client extension tests, logging: one line per call, with redaction.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import { logging } from "@ramify/api/http/extensions/logging";
import { fakeClock, fetchSend, makeRequest, recordingLogger, scripted } from "./support.ts";

Deno.test("logging: request at debug, response at info, 4xx/5xx at warn, failure at error", async () => {
  const { logger, lines } = recordingLogger();
  const send = logging({ level: "debug", logger, now: fakeClock() }).wrap(
    scripted(
      new Response("ok", { headers: { "content-type": "text/plain" } }),
      new Response(null, { status: 404 }),
      new TypeError("down"),
    ).send,
  );
  await send(makeRequest({ headers: { accept: "application/json" } }));
  await send(makeRequest({ method: "DELETE" }));
  const failure = await send(makeRequest()).catch((error) => error);
  assert.ok(failure instanceof TypeError);
  const url = "http://api.test/books";
  assert.deepEqual(lines, [
    ["debug", `GET ${url}`, { method: "GET", url, headers: { accept: "application/json" } }],
    ["info", `GET ${url} 200 (12 ms)`, {
      method: "GET",
      url,
      status: 200,
      durationMs: 12,
      headers: { "content-type": "text/plain" },
    }],
    ["debug", `DELETE ${url}`, { method: "DELETE", url, headers: {} }],
    ["warn", `DELETE ${url} 404 (12 ms)`, {
      method: "DELETE",
      url,
      status: 404,
      durationMs: 12,
      headers: {},
    }],
    ["debug", `GET ${url}`, { method: "GET", url, headers: {} }],
    ["error", `GET ${url} failed`, { method: "GET", url, durationMs: 12, error: failure }],
  ]);
});

Deno.test("logging: nothing below the level is written", async () => {
  const outcomes =
    () => [new Response("ok"), new Response(null, { status: 500 }), new TypeError("x")];
  const levelsAt = async (level?: "info" | "warn" | "error" | "silent") => {
    const { logger, lines } = recordingLogger();
    const send = logging({ level, logger }).wrap(scripted(...outcomes()).send);
    await send(makeRequest());
    await send(makeRequest());
    await send(makeRequest()).catch(() => {});
    return lines.map(([lineLevel]) => lineLevel);
  };
  assert.deepEqual(await levelsAt(), ["info", "warn", "error"], "the default level is info");
  assert.deepEqual(await levelsAt("info"), ["info", "warn", "error"]);
  assert.deepEqual(await levelsAt("warn"), ["warn", "error"]);
  assert.deepEqual(await levelsAt("error"), ["error"]);
  assert.deepEqual(await levelsAt("silent"), []);
});

Deno.test("logging: response headers only at debug", async () => {
  const { logger, lines } = recordingLogger();
  await logging({ logger, now: fakeClock() }).wrap(scripted(new Response("ok")).send)(
    makeRequest(),
  );
  assert.deepEqual(lines, [["info", "GET http://api.test/books 200 (12 ms)", {
    method: "GET",
    url: "http://api.test/books",
    status: 200,
    durationMs: 12,
  }]]);
});

Deno.test("logging: credential headers are redacted in the log, not on the wire", async () => {
  const { logger, lines } = recordingLogger();
  const { send, calls } = scripted(
    new Response("ok", { headers: { "set-cookie": "session=abc", "x-session": "s2" } }),
  );
  await logging({ level: "debug", logger, redact: ["X-Session"] }).wrap(send)(
    makeRequest({
      headers: {
        authorization: "Bearer secret",
        "proxy-authorization": "Basic cHJveHk=",
        cookie: "session=abc",
        "x-api-key": "k",
        "x-session": "s1",
        accept: "application/json",
      },
    }),
  );
  assert.deepEqual(lines[0][2].headers, {
    accept: "application/json",
    authorization: "[redacted]",
    cookie: "[redacted]",
    "proxy-authorization": "[redacted]",
    "x-api-key": "[redacted]",
    "x-session": "[redacted]",
  });
  assert.deepEqual(lines[1][2].headers, {
    "content-type": "text/plain;charset=UTF-8",
    "set-cookie": "[redacted]",
    "x-session": "[redacted]",
  });
  assert.equal(calls[0].headers.get("authorization"), "Bearer secret");
  assert.equal(calls[0].headers.get("x-session"), "s1");
});

Deno.test("logging: URL userinfo and secret query parameters are redacted", async () => {
  const { logger, lines } = recordingLogger();
  const { send, calls } = scripted(new Response("ok"));
  const url = "http://ann:pw@api.test/books?token=t1&page=2&API_KEY=k&access%5Ftoken=a&sig=s&" +
    "q=a%20b&password&secret=x#top";
  await logging({ level: "debug", logger, redact: ["sig"] }).wrap(send)(makeRequest({ url }));
  const expected = "http://[redacted]@api.test/books?token=[redacted]&page=2&API_KEY=[redacted]&" +
    "access%5Ftoken=[redacted]&sig=[redacted]&q=a%20b&password=[redacted]&secret=[redacted]#top";
  assert.equal(lines[0][1], `GET ${expected}`);
  assert.equal(lines[0][2].url, expected);
  assert.equal(lines[1][2].url, expected);
  assert.equal(calls[0].url, url, "the request is sent untouched");
  for (const [, message, details] of lines) {
    for (const secret of ["ann", "pw", "t1", "=k", "=a&", "=s&", "=x"]) {
      assert.ok(!message.includes(secret) && !JSON.stringify(details).includes(secret), secret);
    }
  }
});

Deno.test("logging: URLs without secrets are logged as they are", async () => {
  const { logger, lines } = recordingLogger();
  const url = "http://api.test/books/%C3%A9?page=2&sort=title+asc&empty=&flag";
  await logging({ logger }).wrap(scripted(new Response("ok")).send)(makeRequest({ url }));
  assert.equal(lines[0][2].url, url);
  assert.equal(lines[0][1].startsWith(`GET ${url} 200`), true);
});

Deno.test("logging: a failure is logged and rethrown unchanged", async () => {
  const { logger, lines } = recordingLogger();
  const abort = new DOMException("stopped", "AbortError");
  await assert.rejects(
    logging({ logger }).wrap(scripted(abort).send)(makeRequest()),
    (error) => error === abort,
  );
  assert.equal(lines.length, 1);
  assert.equal(lines[0][0], "error");
  assert.equal(lines[0][2].error, abort);
});

Deno.test("logging (integration): each request over the wire is logged with its status", async () => {
  const { logger, lines } = recordingLogger();
  await withServer(
    (request) =>
      new URL(request.url).pathname === "/missing"
        ? new Response("no", { status: 404 })
        : new Response("yes"),
    async (base) => {
      const send = logging({ logger }).wrap(fetchSend);
      await (await send(makeRequest({ url: `${base}/books?token=abc` }))).text();
      await (await send(makeRequest({ url: `${base}/missing` }))).text();
    },
  );
  assert.deepEqual(lines.map(([level, , details]) => [level, details.status, details.url]), [
    ["info", 200, lines[0][2].url],
    ["warn", 404, lines[1][2].url],
  ]);
  assert.match(String(lines[0][2].url), /\/books\?token=\[redacted\]$/);
  assert.equal(typeof lines[0][2].durationMs, "number");
});

Deno.test("logging (client): each call is logged once in the documented order, streams included", async () => {
  const { createClient, createFetch } = await import("@ramify/api/http");
  const { http } = await import("@ramify/api/http/verbs");
  const { api, HttpError, op } = await import("@ramify/api/tree");
  const { retry } = await import("@ramify/api/http/extensions/retry");
  const { timeout } = await import("@ramify/api/http/extensions/timeout");
  const tree = api({
    ping: op(() => "pong", http.get),
    missing: op(() => {
      throw new HttpError(404, "no such thing");
    }, http.get),
    ticks: op(async function* () {
      yield 1;
      yield 2;
      yield 3;
    }, http.get),
  });
  const { logger, lines } = recordingLogger();
  await withServer(createFetch(tree), async (base) => {
    const client = createClient(tree, {
      baseUrl: base,
      extensions: [retry(), timeout({ ms: 5_000 }), logging({ logger })],
    });
    assert.equal(await client.ping(), "pong");
    await assert.rejects(client.missing());
    const ticks: unknown[] = [];
    for await (const tick of await client.ticks()) ticks.push(tick);
    assert.deepEqual(ticks, [1, 2, 3]);
  });
  assert.deepEqual(
    lines.map((
      [level, message],
    ) => [level, message.replace(/^(\S+) \S+\/(\w+).*?( \d{3})? \(.*$/, "$1 $2$3")]),
    [
      ["info", "GET ping 200"],
      ["warn", "GET missing 404"],
      ["info", "GET ticks 200"],
    ],
  );
});
