// Bytes results over MCP, with the SDK's own client over Streamable HTTP: an
// image, audio, anything else as an embedded resource with a base64 blob, a
// declared binary output schema (no outputSchema, no structured content), a
// Response of a media type that is not text, a byte stream, one that fails
// midway, one cancelled, and a multi-megabyte blob.
import assert from "node:assert/strict";
import { z } from "zod";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler, toTools } from "@ramify/api/tools";

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 255]);
const BIG = new Uint8Array(5 * 1024 * 1024).map((_, i) => (i * 31) & 255);

function streamOf(chunks: Uint8Array[], fail = false): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      if (fail) controller.error(new Error("the disk went away"));
      else controller.close();
    },
  });
}

/** Bytes of a media type the value cannot carry (a bare buffer), declared as Standard JSON Schema. */
const pngBuffer = {
  "~standard": {
    version: 1,
    vendor: "test",
    validate: (value: unknown) =>
      value instanceof Uint8Array ? { value } : { issues: [{ message: "Expected bytes" }] },
    jsonSchema: {
      input: () => ({ type: "string", format: "binary", contentMediaType: "image/png" }),
      output: () => ({ type: "string", format: "binary", contentMediaType: "image/png" }),
    },
  },
} as const;

/** Settles when the endless stream is cancelled. */
const endless: { cancelled?: () => void } = {};

const readOnly = { tags: { readOnly: true } } as const;
const tree = api({
  endless: op(() =>
    new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        controller.enqueue(PNG);
      },
      cancel: () => endless.cancelled?.(),
    }), readOnly),
  image: op(() => new File([PNG], "dot.png", { type: "image/png" }), readOnly),
  audio: op(() => new Blob([PNG], { type: "audio/wav" }), readOnly),
  pdf: op(() => new File([PNG], "report 1.pdf", { type: "application/pdf" }), readOnly),
  buffer: op(() => PNG, readOnly),
  cover: op(() => new File([PNG], "cover.png", { type: "image/png" }), {
    output: z.file().mime(["image/png"]),
    ...readOnly,
  }),
  png: op(() => PNG, { output: pngBuffer, ...readOnly }),
  stream: op(() => streamOf([PNG.subarray(0, 4), PNG.subarray(4)]), readOnly),
  broken: op(() => streamOf([PNG], true), readOnly),
  big: op(() => new Blob([BIG]), readOnly),
  response: op(() => new Response(PNG, { headers: { "content-type": "image/png" } }), readOnly),
  text: op(() => new Response("plain words"), readOnly),
  frames: op(async function* () {
    yield { n: 1 };
    yield new Blob([PNG], { type: "image/png" });
  }, { tags: { readOnly: true, streaming: true } }),
});

async function connected(): Promise<{ client: Client; faults: unknown[]; close(): Promise<void> }> {
  const faults: unknown[] = [];
  const mcp = createMcpHandler(tree, { onError: (error) => faults.push(error) });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.addr.port}/mcp`)),
  );
  return {
    client,
    faults,
    close: async () => {
      await client.close();
      await mcp.close();
      await server.shutdown();
    },
  };
}

const decoded = (base64: string) => Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));

Deno.test("MCP bytes: a declared binary output has no outputSchema", () => {
  const cover = toTools(tree).find((tool) => tool.name === "cover")!;
  assert.equal(cover.outputSchema, undefined);
});

Deno.test("MCP bytes: each kind is its content block, with the SDK's client", async (t) => {
  const { client, faults, close } = await connected();
  try {
    await t.step("an image is image content", async () => {
      const result = await client.callTool({ name: "image", arguments: {} });
      assert.equal(result.structuredContent, undefined);
      const [block] = result.content as { type: string; data: string; mimeType: string }[];
      assert.equal(block.type, "image");
      assert.equal(block.mimeType, "image/png");
      assert.deepEqual(decoded(block.data), PNG);
    });
    await t.step("audio is audio content", async () => {
      const result = await client.callTool({ name: "audio", arguments: {} });
      const [block] = result.content as { type: string; mimeType: string }[];
      assert.deepEqual([block.type, block.mimeType], ["audio", "audio/wav"]);
    });
    await t.step("anything else is an embedded resource with a base64 blob", async () => {
      const pdf = await client.callTool({ name: "pdf", arguments: {} });
      assert.deepEqual(pdf.content, [{
        type: "resource",
        resource: {
          uri: "ramify://pdf/result/report%201.pdf",
          mimeType: "application/pdf",
          blob: btoa(String.fromCharCode(...PNG)),
        },
      }]);
      const buffer = await client.callTool({ name: "buffer", arguments: {} });
      const [block] = buffer.content as { resource: { uri: string; mimeType: string } }[];
      assert.deepEqual(block.resource.uri, "ramify://buffer/result");
      assert.deepEqual(block.resource.mimeType, "application/octet-stream");
    });
    await t.step("a declared binary output: image content, no structured content", async () => {
      const result = await client.callTool({ name: "cover", arguments: {} });
      assert.equal(result.structuredContent, undefined);
      const [block] = result.content as { type: string; data: string; mimeType: string }[];
      assert.deepEqual([block.type, block.mimeType], ["image", "image/png"]);
      assert.deepEqual(decoded(block.data), PNG);
    });
    await t.step("a buffer takes the one media type its output schema names", async () => {
      const result = await client.callTool({ name: "png", arguments: {} });
      const [block] = result.content as { type: string; data: string; mimeType: string }[];
      assert.deepEqual([block.type, block.mimeType], ["image", "image/png"]);
      assert.deepEqual(decoded(block.data), PNG);
    });
    await t.step("a Response is bytes unless its media type is text", async () => {
      const image = await client.callTool({ name: "response", arguments: {} });
      const [block] = image.content as { type: string; data: string; mimeType: string }[];
      assert.deepEqual([block.type, block.mimeType], ["image", "image/png"]);
      assert.deepEqual(decoded(block.data), PNG);
      const text = await client.callTool({ name: "text", arguments: {} });
      assert.deepEqual(text.content, [{ type: "text", text: "plain words" }]);
    });
    await t.step("a byte stream is read whole, never taken for a stream of items", async () => {
      const result = await client.callTool({ name: "stream", arguments: {} });
      const [block] = result.content as { resource: { blob: string } }[];
      assert.deepEqual(decoded(block.resource.blob), PNG);
    });
    await t.step("a stream failing midway is a masked fault", async () => {
      const result = await client.callTool({ name: "broken", arguments: {} });
      assert.equal(result.isError, true);
      assert.deepEqual(result.content, [{ type: "text", text: "500 Internal Server Error" }]);
      assert.match(String(faults.at(-1)), /the disk went away/);
    });
    await t.step("an item of bytes in a stream is a masked fault, not {}", async () => {
      const result = await client.callTool({ name: "frames", arguments: {} });
      assert.equal(result.isError, true);
      assert.deepEqual(result.content, [{ type: "text", text: "500 Internal Server Error" }]);
      assert.match(String(faults.at(-1)), /frames: a stream's item is bytes/);
    });
    await t.step("cancelling the call stops reading an endless stream", async () => {
      const reported = faults.length;
      const stopped = new Promise<void>((resolve) => endless.cancelled = resolve);
      const controller = new AbortController();
      const call = client.callTool({ name: "endless", arguments: {} }, {
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(new Error("user gave up")), 50);
      await assert.rejects(call);
      await stopped;
      assert.equal(faults.length, reported, "a cancel is no fault");
    });
    await t.step("five megabytes arrive whole", async () => {
      const result = await client.callTool({ name: "big", arguments: {} });
      const [block] = result.content as { resource: { blob: string } }[];
      assert.deepEqual(decoded(block.resource.blob), BIG);
    });
  } finally {
    await close();
  }
});
