// Cancelling a 2026-07-28 `tools/call` aborts the handler's signal on Deno,
// whether or not the handler has sent anything. A Deno.serve handler whose
// response has not begun learns of a client gone only for a small request:
// past about 512 bytes (any real client's, Node's fetch with its
// `accept-encoding: gzip, deflate`, say) the request's signal stays quiet
// until the server writes, so a handler that sends no progress ran to its end.
// Every request here is padded past that size: a raw socket closed mid-call
// (as Node's fetch closes it), with and without a progress token, and the
// SDK's own Client aborting its call.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler } from "@ramify/api/tools";

/** A header that takes every request past the size Deno watches unprompted. */
const PAD = { "x-pad": "p".repeat(2048) };

/** How each call of `wait` ended: "aborted" or "finished". */
function served() {
  const ends: string[] = [];
  let started = () => {};
  const tree = api({
    wait: op((_input, { signal }) =>
      new Promise<string>((resolve, reject) => {
        started();
        const timer = setTimeout(() => {
          ends.push("finished");
          resolve("finished");
        }, 2_000);
        signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          ends.push("aborted");
          reject(signal.reason);
        }, { once: true });
      }), { tags: { readOnly: true } }),
  });
  const mcp = createMcpHandler(tree);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  return {
    ends,
    port: server.addr.port,
    /** Settles when the next call's handler has begun. */
    begun: () => new Promise<void>((resolve) => started = resolve),
    close: async () => {
      await mcp.close();
      await server.shutdown();
    },
  };
}

/** Waits for `done`, giving up after 5 s (a guard against hangs, not a timing check). */
async function eventually(done: () => boolean, what: string): Promise<void> {
  for (let tries = 0; !done(); tries++) {
    if (tries === 250) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("MCP 2026-07-28 on Deno: a large call the SDK's Client aborts aborts its handler", async () => {
  const server = served();
  const client = new Client({ name: "test", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), {
      requestInit: { headers: PAD },
    }),
  );
  try {
    const begun = server.begun();
    const controller = new AbortController();
    const call = client.callTool({ name: "wait", arguments: {} }, { signal: controller.signal });
    await begun;
    controller.abort(new Error("the user gave up"));
    await assert.rejects(call);
    await eventually(() => server.ends.length > 0, "the handler's end");
    assert.deepEqual(server.ends, ["aborted"]);
  } finally {
    await client.close();
    await server.close();
  }
});

for (const progress of [false, true]) {
  Deno.test(`MCP 2026-07-28 on Deno: a connection closed mid-call aborts the handler (${progress ? "a" : "no"} progress token)`, async () => {
    await closedMidCall(progress);
  });
}

async function closedMidCall(progress: boolean) {
  const server = served();
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "wait",
      arguments: {},
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        "io.modelcontextprotocol/clientCapabilities": {},
        ...(progress ? { progressToken: 1 } : {}),
      },
    },
  });
  const head = [
    "POST /mcp HTTP/1.1",
    `host: 127.0.0.1:${server.port}`,
    "content-type: application/json",
    "accept: application/json, text/event-stream",
    // Node's fetch says this; with it the request is past Deno's unprompted watch.
    "accept-encoding: gzip, deflate",
    "mcp-protocol-version: 2026-07-28",
    "mcp-method: tools/call",
    "mcp-name: wait",
    `x-pad: ${PAD["x-pad"]}`,
    `content-length: ${new TextEncoder().encode(body).length}`,
  ].join("\r\n");
  const connection = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
  try {
    const begun = server.begun();
    await connection.write(new TextEncoder().encode(`${head}\r\n\r\n${body}`));
    await begun;
    connection.close();
    await eventually(() => server.ends.length > 0, "the handler's end");
    assert.deepEqual(server.ends, ["aborted"]);
  } finally {
    await server.close();
  }
}
