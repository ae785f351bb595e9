// Client extension tests, interceptors: request and response hooks, in order.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import type { ClientRequest } from "@ramify/api/client";
import { interceptors } from "@ramify/api/http/extensions/interceptors";
import { chain, fetchSend, makeRequest, scripted } from "./support.ts";

// ----------------------------------------------------------- interceptors

Deno.test("interceptors: composed, the outer onRequest runs first and its onResponse last", async () => {
  const events: string[] = [];
  const { send } = scripted(() => {
    events.push("send");
    return new Response("ok");
  });
  const hooks = (name: string) =>
    interceptors({
      onRequest: () => void events.push(`${name}.onRequest`),
      onResponse: () => void events.push(`${name}.onResponse`),
    });
  await chain([hooks("outer"), hooks("inner")], send)(makeRequest());
  assert.deepEqual(events, [
    "outer.onRequest",
    "inner.onRequest",
    "send",
    "inner.onResponse",
    "outer.onResponse",
  ]);
});

Deno.test("interceptors: composed, the inner onError runs first and may recover for the outer", async () => {
  const events: string[] = [];
  const { send } = scripted(new TypeError("down"));
  const extensions = [
    interceptors({
      onResponse: (response) => void events.push(`outer.onResponse ${response.status}`),
      onError: () => void events.push("outer.onError"),
    }),
    interceptors({
      onError: () => {
        events.push("inner.onError");
        return new Response("cached", { status: 203 });
      },
    }),
  ];
  const response = await chain(extensions, send)(makeRequest());
  assert.equal(await response.text(), "cached");
  assert.deepEqual(events, ["inner.onError", "outer.onResponse 203"]);
});

Deno.test("interceptors: onRequest changes the request in place or replaces it, in order", async () => {
  const { send, calls } = scripted(new Response("ok"));
  const original = makeRequest();
  const seen: string[] = [];
  await interceptors({
    onRequest: [
      (request) => {
        request.headers.set("authorization", "Bearer t");
      },
      (request) => Promise.resolve({ ...request, url: `${request.url}?page=2` }),
      (request) => {
        seen.push(request.url);
        request.headers.set("x-seen", request.headers.get("authorization") ?? "");
      },
    ],
    onResponse: (_response, request) => void seen.push(`response for ${request.url}`),
  }).wrap(send)(original);
  const sent = calls[0];
  assert.equal(sent.url, "http://api.test/books?page=2");
  assert.equal(sent.headers.get("authorization"), "Bearer t");
  assert.equal(sent.headers.get("x-seen"), "Bearer t");
  assert.equal(original.url, "http://api.test/books", "a replacement leaves the original alone");
  assert.deepEqual(seen, [
    "http://api.test/books?page=2",
    "response for http://api.test/books?page=2",
  ]);
});

Deno.test("interceptors: onResponse replacements chain in order", async () => {
  const { send } = scripted(new Response("raw", { status: 200 }));
  const response = await interceptors({
    onResponse: [
      async (response) => new Response(`${await response.text()}+1`, { status: 201 }),
      () => undefined,
      async (response) => new Response(`${await response.text()}+2`, { status: response.status }),
    ],
  }).wrap(send)(makeRequest());
  assert.equal(response.status, 201);
  assert.equal(await response.text(), "raw+1+2");
});

Deno.test("interceptors: onError observes and rethrows, recovers, or replaces the error", async () => {
  const failure = new TypeError("down");
  const observed: unknown[] = [];
  const { send } = scripted(failure);
  const observer = (error: unknown, request: ClientRequest) => {
    observed.push(error, request.url);
  };
  // Observed by every hook, then rethrown as is.
  await assert.rejects(
    interceptors({ onError: [observer, observer] }).wrap(send)(makeRequest()),
    (error) => error === failure,
  );
  assert.deepEqual(observed, [failure, "http://api.test/books", failure, "http://api.test/books"]);

  // The first recovery wins and skips the rest; onResponse is not run on it.
  let later = false;
  let onResponse = false;
  const recovered = await interceptors({
    onError: [
      () => new Response("fallback"),
      () => void (later = true),
    ],
    onResponse: () => void (onResponse = true),
  }).wrap(send)(makeRequest());
  assert.equal(await recovered.text(), "fallback");
  assert.equal(later, false);
  assert.equal(onResponse, false);

  // A hook that throws replaces the error.
  await assert.rejects(
    interceptors({
      onError: () => {
        throw new Error("wrapped");
      },
    }).wrap(send)(makeRequest()),
    { message: "wrapped" },
  );
});

Deno.test("interceptors: errors of onRequest and onResponse are not handed to onError", async () => {
  let onError = false;
  const { send, calls } = scripted(new Response("ok"));
  await assert.rejects(
    interceptors({
      onRequest: () => {
        throw new Error("refused");
      },
      onError: () => void (onError = true),
    }).wrap(send)(makeRequest()),
    { message: "refused" },
  );
  assert.equal(calls.length, 0);
  await assert.rejects(
    interceptors({
      onResponse: () => {
        throw new Error("bad response");
      },
      onError: () => void (onError = true),
    }).wrap(send)(makeRequest()),
    { message: "bad response" },
  );
  assert.equal(onError, false);
});

Deno.test("interceptors: no hooks pass everything through", async () => {
  const response = new Response("ok");
  const { send, calls } = scripted(response);
  const request = makeRequest();
  assert.equal(await interceptors({}).wrap(send)(request), response);
  assert.equal(calls[0], request);
});

Deno.test("interceptors (integration): a header added on the way out, the response replaced", async () => {
  await withServer(
    (request) => Response.json({ auth: request.headers.get("authorization") }),
    async (base) => {
      const send = interceptors({
        onRequest: (request) => {
          request.headers.set("authorization", "Bearer secret");
        },
        onResponse: async (response) =>
          Response.json({ wrapped: await response.json() }, { status: response.status }),
      }).wrap(fetchSend);
      const response = await send(makeRequest({ url: `${base}/me` }));
      assert.deepEqual(await response.json(), { wrapped: { auth: "Bearer secret" } });
    },
  );
});
