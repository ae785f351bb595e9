// Which results are bytes and how a surface reads them (tree/bytes.ts), and
// that the call path hands bytes on as they are: a ReadableStream is async
// iterable, yet it is bytes, never a stream of items.
import assert from "node:assert/strict";
import { op } from "@ramify/api/tree";
import {
  bytesOf,
  createCall,
  declaredBytes,
  isBytes,
  OCTET_STREAM,
} from "@ramify/api/tree/catalogue";

Deno.test("bytes: Blob, File, buffers, views and streams are bytes; JSON values are not", () => {
  for (
    const value of [
      new Blob(["a"]),
      new File(["a"], "a.txt"),
      new ArrayBuffer(2),
      new Uint8Array(2),
      new DataView(new ArrayBuffer(2)),
      new ReadableStream(),
    ]
  ) assert.equal(isBytes(value), true, Object.prototype.toString.call(value));
  for (const value of [null, undefined, "text", 1, {}, [1], { type: "image/png" }]) {
    assert.equal(isBytes(value), false, String(value));
  }
});

Deno.test("bytes: the media type is the value's own, else the declared one, else octet-stream", async () => {
  const file = bytesOf(new File(["hi"], "hi.txt", { type: "text/plain" }), "image/png");
  assert.deepEqual([file.type, file.size, file.name], ["text/plain", 2, "hi.txt"]);
  const blob = bytesOf(new Blob(["abc"]), "image/png");
  assert.deepEqual([blob.type, blob.size, blob.name], ["image/png", 3, undefined]);
  assert.equal(bytesOf(new Blob(["abc"])).type, OCTET_STREAM);
  const stream = bytesOf(new ReadableStream());
  assert.deepEqual([stream.type, stream.size], [OCTET_STREAM, undefined]);
  // A view of part of a buffer is that part alone, copied.
  const buffer = new Uint8Array([9, 1, 2, 9]);
  const part = bytesOf(buffer.subarray(1, 3), "application/pdf");
  buffer.fill(0);
  assert.equal(part.size, 2);
  assert.deepEqual([...new Uint8Array(await (part.body as Blob).arrayBuffer())], [1, 2]);
  assert.throws(() => bytesOf({ not: "bytes" }), TypeError);
});

Deno.test("bytes: an output schema of format binary declares them, with its media types", () => {
  assert.deepEqual(declaredBytes({ type: "string", format: "binary" }), { types: [] });
  assert.deepEqual(
    declaredBytes({
      type: "string",
      format: "binary",
      anyOf: [{ contentMediaType: "image/png" }, { contentMediaType: "image/jpeg" }],
    }),
    { types: ["image/png", "image/jpeg"] },
  );
  assert.equal(declaredBytes({ type: "string", format: "date-time" }), undefined);
  assert.equal(declaredBytes(undefined), undefined);
});

Deno.test("bytes: the call path hands a byte stream on as it is, not as items", async () => {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array([1, 2]));
      controller.close();
    },
  });
  const result = await createCall(op(() => stream))({}, {});
  assert.equal(result, stream);
});

Deno.test("bytes: byteChunks reads a Blob or a stream, and leaving early cancels the stream", async () => {
  const { byteChunks } = await import("../../tree/bytes.ts");
  const sizes: number[] = [];
  for await (const chunk of byteChunks(new Blob(["abc"]))) sizes.push(chunk.length);
  assert.deepEqual(sizes, [3]);
  let cancelled: unknown;
  const endless = new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(new Uint8Array(1)),
    cancel: (reason) => void (cancelled = reason ?? "cancelled"),
  });
  for await (const _chunk of byteChunks(endless)) break;
  assert.equal(cancelled, "cancelled");
});
