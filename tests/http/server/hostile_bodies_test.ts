// Hostile bodies over a real server: malformed, non-object, oversized, streamed
// and deeply nested JSON are deliberate 4xx answers, never a crash.
import assert from "node:assert/strict";
import { withServer } from "../../support/server.ts";
import { api, op } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";
import { asSent } from "./fetch_support.ts";
import {
  type Facts,
  factsOf,
  hostileServer,
  jsonOf,
  problemOf,
  send,
  streamOf,
} from "./hostile_support.ts";

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
    // JSON over the network carries no byte-order mark (RFC 8259): one is 400,
    // with its length declared (the runtime's JSON read) or streamed.
    await problemOf(await send(`${base}/echo`, '\ufeff{"a":1}', "application/json"), 400, "BOM");
    await problemOf(
      await send(`${base}/echo`, streamOf(['\ufeff{"a"', ":1}"]), "application/json"),
      400,
      "streamed BOM",
    );
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
  const tree = api({ echo: op(factsOf, { input: asSent }) });
  await withServer(createFetch(tree, { maxBodyBytes: 1024 }), async (base) => {
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
