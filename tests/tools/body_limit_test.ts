// An MCP POST's body is read (for its UTF-8 check) within `maxBodyBytes`
// (default 1 MiB, as REST's and GraphQL's) and `bodyTimeoutMs`: past the
// bound, declared or streamed without a length, the answer is a 413 JSON-RPC
// error; a body dribbled slower than the deadline is a 408, as on REST and
// GraphQL; the server keeps serving. The bound is checked when the handler is
// made, and one above the SDK's own 4 MiB is the SDK's bound too.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";
import { INITIALIZE, mcpPost } from "../support/mcp_wire.ts";
import { dribbledPost, withServer } from "../support/server.ts";

const MiB = 1024 * 1024;
const tree = api({ ping: op(() => "pong", { tags: { readOnly: true } }) });

function tooLarge(limit: number) {
  return {
    jsonrpc: "2.0",
    error: {
      code: -32000,
      message: `Payload Too Large: Request body must not exceed ${limit} bytes`,
    },
    id: null,
  };
}

/** 64 KiB chunks until past `size`, with no Content-Length. */
function streamed(size: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if ((sent += chunk.byteLength) > size) controller.close();
      else controller.enqueue(chunk);
    },
  });
}

/** Past `limit`, declared and streamed: a 413 JSON-RPC error each; then a handshake is served. */
async function refusesPast(limit: number, opts: { maxBodyBytes?: number }) {
  const mcp = createMcpHandler(tree, opts);
  await withServer(mcp, async (base) => {
    const { headers } = mcpPost();
    const big = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(limit)}"}}`;
    const declared = await fetch(`${base}/mcp`, { method: "POST", headers, body: big });
    assert.equal(declared.status, 413);
    assert.deepEqual(await declared.json(), tooLarge(limit));
    const chunked = await fetch(`${base}/mcp`, {
      method: "POST",
      headers,
      body: streamed(2 * limit),
      duplex: "half",
    } as RequestInit);
    assert.equal(chunked.status, 413);
    assert.deepEqual(await chunked.json(), tooLarge(limit));
    const handshake = await fetch(`${base}/mcp`, mcpPost());
    assert.equal(handshake.status, 200, "the server keeps serving");
    await handshake.body?.cancel();
  });
  await mcp.close();
}

Deno.test("MCP: a body past 1 MiB (the default) is a 413 JSON-RPC error, with or without a Content-Length", async () => {
  await refusesPast(MiB, {});
});

Deno.test("MCP: maxBodyBytes sets the bound, as on REST and GraphQL", async () => {
  await refusesPast(64 * 1024, { maxBodyBytes: 64 * 1024 });
});

Deno.test("MCP: a maxBodyBytes above the SDK's own 4 MiB lets a larger body through", async () => {
  const mcp = createMcpHandler(tree, { maxBodyBytes: 8 * MiB });
  await withServer(mcp, async (base) => {
    const padded = {
      ...INITIALIZE,
      params: {
        ...INITIALIZE.params,
        capabilities: { experimental: { pad: { text: "x".repeat(5 * MiB) } } },
      },
    };
    const handshake = await fetch(`${base}/mcp`, mcpPost(padded));
    assert.equal(handshake.status, 200);
    assert.equal((await handshake.json()).result.serverInfo.name, "ramify");
  });
  await mcp.close();
});

Deno.test("MCP: a maxBodyBytes that is not a positive integer is refused when the handler is made", () => {
  for (const maxBodyBytes of [0, -1, 1.5, Number.NaN, Infinity]) {
    assert.throws(
      () => createMcpHandler(tree, { maxBodyBytes }),
      (error) =>
        error instanceof RangeError &&
        error.message === `MCP: maxBodyBytes must be a positive integer, got ${maxBodyBytes}`,
    );
  }
});

Deno.test("MCP: a body that does not arrive within bodyTimeoutMs is a 408 JSON-RPC error", async () => {
  const mcp = createMcpHandler(tree, { bodyTimeoutMs: 100 });
  await withServer(mcp, async (base) => {
    const answer = await dribbledPost(base, "/mcp", {
      accept: "application/json, text/event-stream",
    });
    assert.match(answer, /^HTTP\/1.1 408/);
    assert.match(
      answer,
      /"code":-32000,"message":"Request Timeout: the body did not arrive within 100 ms"/,
    );
    const handshake = await fetch(`${base}/mcp`, mcpPost());
    assert.equal(handshake.status, 200, "the server keeps serving");
    await handshake.body?.cancel();
  });
  await mcp.close();
});
