// An MCP POST's body is read (for its UTF-8 check) within the SDK's 4 MiB bound
// and `bodyTimeoutMs`: past the bound, declared or streamed without a length,
// the answer is the SDK's own 413 JSON-RPC error; a body dribbled slower than
// the deadline is a 408, as on REST and GraphQL; the server keeps serving.
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";
import { mcpPost } from "../support/mcp_wire.ts";
import { dribbledPost, withServer } from "../support/server.ts";

const LIMIT = 4 * 1024 * 1024;
const TOO_LARGE = {
  jsonrpc: "2.0",
  error: {
    code: -32000,
    message: `Payload Too Large: Request body must not exceed ${LIMIT} bytes`,
  },
  id: null,
};

Deno.test("MCP: a body past 4 MiB is a 413 JSON-RPC error, with or without a Content-Length", async () => {
  const mcp = createMcpHandler(api({ ping: op(() => "pong", { tags: { readOnly: true } }) }));
  await withServer(mcp, async (base) => {
    const { headers } = mcpPost();
    const big = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(LIMIT)}"}}`;
    const declared = await fetch(`${base}/mcp`, { method: "POST", headers, body: big });
    assert.equal(declared.status, 413);
    assert.deepEqual(await declared.json(), TOO_LARGE);
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const streamed = await fetch(`${base}/mcp`, {
      method: "POST",
      headers,
      // No Content-Length: 64 KiB chunks until well past the bound.
      body: new ReadableStream<Uint8Array>({
        pull(controller) {
          if ((sent += chunk.byteLength) > 2 * LIMIT) controller.close();
          else controller.enqueue(chunk);
        },
      }),
      duplex: "half",
    } as RequestInit);
    assert.equal(streamed.status, 413);
    assert.deepEqual(await streamed.json(), TOO_LARGE);
    const handshake = await fetch(`${base}/mcp`, mcpPost());
    assert.equal(handshake.status, 200, "the server keeps serving");
    await handshake.body?.cancel();
  });
  await mcp.close();
});

Deno.test("MCP: a body that does not arrive within bodyTimeoutMs is a 408 JSON-RPC error", async () => {
  const mcp = createMcpHandler(api({ ping: op(() => "pong", { tags: { readOnly: true } }) }), {
    bodyTimeoutMs: 100,
  });
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
