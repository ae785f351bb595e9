// Bytes over HTTP, against a real server: a leaf returning a Blob, File,
// buffer or ReadableStream answers with the bytes (never JSON, never
// Server-Sent Events), its media type, length, Content-Disposition for a named
// File, and one Range of a Blob; malformed and multiple ranges get the whole
// body, a range past the end 416.
import assert from "node:assert/strict";
import { api, op, reply } from "@ramify/api/tree";
import { http } from "@ramify/api/http/verbs";
import { createFetch } from "@ramify/api/http";
import { z } from "zod";

const FAILING_BODY_SERVER = new URL("./failing_body_server.ts", import.meta.url).pathname;
const LOCK = new URL("../../../deno.lock", import.meta.url).pathname;
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4]);
const TEXT = "0123456789abcdefghij"; // 20 bytes

function chunks(...parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
}

const errors: unknown[] = [];
const tree = api({
  blob: op(() => new Blob([TEXT], { type: "text/plain" }), http.get),
  file: op(() => new File([TEXT], "report.txt", { type: "text/plain" }), http.get),
  unicode: op(() => new File(["x"], 'résumé "1".pdf', { type: "application/pdf" }), http.get),
  buffer: op(() => PNG.buffer, http.get),
  view: op(() => PNG.subarray(8), http.get),
  stream: op(() => chunks("ab", "cd", "ef"), http.get),
  events: op(async function* () {
    yield 1;
  }, http.get),
  // A File of no type of its own, and a schema that names one without checking it.
  png: op(() => new File([PNG], ""), http.get, {
    output: z.file().meta({ contentMediaType: "image/png" }),
  }),
  failsAtOnce: op(() =>
    new ReadableStream({
      pull() {
        throw new Error("no source");
      },
    }), http.get),
  strings: op(() =>
    new ReadableStream<string>({
      start(controller) {
        controller.enqueue("not bytes");
        controller.close();
      },
    }), http.get),
  upload: op(() => new Blob(["made"]), http.post, { http: { status: 201 } }),
  inline: op(() =>
    reply(new File([TEXT], "a.txt", { type: "text/plain" }), {
      headers: { "content-disposition": "inline", "cache-control": "max-age=60" },
    }), http.get),
});

async function withServer(fn: (base: string) => Promise<void>) {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    createFetch(tree, { onError: (error) => errors.push(error) }),
  );
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

async function bytesOf(response: Response): Promise<number[]> {
  return [...new Uint8Array(await response.arrayBuffer())];
}

Deno.test("bytes: a Blob, File, buffer, view and stream answer with their bytes", async () => {
  await withServer(async (base) => {
    const blob = await fetch(`${base}/blob`);
    assert.equal(blob.status, 200);
    assert.equal(blob.headers.get("content-type"), "text/plain");
    assert.equal(blob.headers.get("content-length"), "20");
    assert.equal(blob.headers.get("accept-ranges"), "bytes");
    assert.equal(blob.headers.get("content-disposition"), null);
    assert.equal(await blob.text(), TEXT);

    const file = await fetch(`${base}/file`);
    assert.equal(file.headers.get("content-disposition"), 'attachment; filename="report.txt"');
    assert.equal(await file.text(), TEXT);

    const buffer = await fetch(`${base}/buffer`);
    assert.equal(buffer.headers.get("content-type"), "application/octet-stream");
    assert.deepEqual(await bytesOf(buffer), [...PNG]);
    const view = await fetch(`${base}/view`);
    assert.deepEqual(await bytesOf(view), [1, 2, 3, 4]);

    const stream = await fetch(`${base}/stream`);
    assert.equal(stream.status, 200);
    assert.equal(stream.headers.get("content-type"), "application/octet-stream");
    assert.equal(stream.headers.get("content-length"), null);
    assert.equal(await stream.text(), "abcdef");
    // A stream's size is unknown: a Range gets it whole.
    const ranged = await fetch(`${base}/stream`, { headers: { range: "bytes=0-0" } });
    assert.equal(ranged.status, 200);
    assert.equal(ranged.headers.get("accept-ranges"), null);
    assert.equal(await ranged.text(), "abcdef");

    // An async generator is still events: bytes alone are asked about first.
    const events = await fetch(`${base}/events`);
    assert.equal(events.headers.get("content-type"), "text/event-stream");
    await events.body?.cancel();
  });
});

Deno.test("bytes: a non-ASCII file name goes in RFC 5987 encoding beside an ASCII fallback", async () => {
  await withServer(async (base) => {
    const response = await fetch(`${base}/unicode`);
    assert.equal(
      response.headers.get("content-disposition"),
      `attachment; filename="r_sum_ _1_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%221%22.pdf`,
    );
    await response.body?.cancel();
  });
});

Deno.test("bytes: an output schema names the media type of bytes without their own", async () => {
  await withServer(async (base) => {
    const response = await fetch(`${base}/png`);
    assert.equal(response.headers.get("content-type"), "image/png");
    assert.deepEqual(await bytesOf(response), [...PNG]);
  });
});

Deno.test("bytes: a declared status is sent with the bytes, without ranges", async () => {
  await withServer(async (base) => {
    const response = await fetch(`${base}/upload`, {
      method: "POST",
      headers: { range: "bytes=0-0" },
    });
    assert.equal(response.status, 201);
    assert.equal(await response.text(), "made");
  });
});

Deno.test("bytes: a reply() around bytes adds its headers, and ranges still apply", async () => {
  await withServer(async (base) => {
    const whole = await fetch(`${base}/inline`);
    assert.equal(whole.headers.get("content-disposition"), "inline");
    assert.equal(whole.headers.get("cache-control"), "max-age=60");
    assert.equal(await whole.text(), TEXT);
    const part = await fetch(`${base}/inline`, { headers: { range: "bytes=0-2" } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get("cache-control"), "max-age=60");
    assert.equal(await part.text(), "012");
  });
});

Deno.test("bytes: Accept: application/json alone still gets the bytes (RFC 9110 lets Accept be disregarded)", async () => {
  await withServer(async (base) => {
    const response = await fetch(`${base}/blob`, { headers: { accept: "application/json" } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/plain");
    assert.equal(await response.text(), TEXT);
  });
});

Deno.test("bytes: HEAD of a binary GET has its headers and no body, and reads no stream", async () => {
  await withServer(async (base) => {
    const blob = await fetch(`${base}/blob`, { method: "HEAD" });
    assert.equal(blob.status, 200);
    assert.equal(blob.headers.get("content-length"), "20");
    assert.equal(blob.headers.get("content-type"), "text/plain");
    assert.equal(await blob.text(), "");
    const stream = await fetch(`${base}/stream`, { method: "HEAD" });
    assert.equal(stream.status, 200);
    assert.equal(stream.headers.get("content-type"), "application/octet-stream");
    assert.equal(await stream.text(), "");
  });
});

const RANGES: [string, number, string | null, string][] = [
  ["bytes=0-4", 206, "bytes 0-4/20", "01234"],
  ["bytes=15-", 206, "bytes 15-19/20", "fghij"],
  ["bytes=-5", 206, "bytes 15-19/20", "fghij"],
  ["bytes=-500", 206, "bytes 0-19/20", TEXT],
  ["bytes=18-100", 206, "bytes 18-19/20", "ij"],
  ["BYTES = 2-3", 206, "bytes 2-3/20", "23"],
  // Malformed or not ours: ignored, the whole body (RFC 9110 §14.2).
  ["bytes=5-2", 200, null, TEXT],
  ["bytes=a-b", 200, null, TEXT],
  ["bytes=-", 200, null, TEXT],
  ["items=0-1", 200, null, TEXT],
  ["bytes=0-1junk", 200, null, TEXT],
  ["bytes=99999999999999999999999-", 416, "bytes */20", ""],
  // Several ranges: the whole body rather than multipart/byteranges.
  ["bytes=0-1,5-6", 200, null, TEXT],
];

Deno.test("bytes: Range of a Blob: one range is 206, malformed or several are the whole body", async () => {
  await withServer(async (base) => {
    for (const [range, status, contentRange, body] of RANGES) {
      const response = await fetch(`${base}/file`, { headers: { range } });
      assert.equal(response.status, status, range);
      assert.equal(response.headers.get("content-range"), contentRange, range);
      if (status === 416) {
        assert.equal(response.headers.get("content-type"), "application/problem+json");
        assert.equal((await response.json()).status, 416);
        continue;
      }
      assert.equal(response.headers.get("content-type"), "text/plain", range);
      assert.equal(response.headers.get("content-length"), String(body.length), range);
      assert.equal(await response.text(), body, range);
    }
  });
});

Deno.test("bytes: a Range past the end is 416 problem+json with bytes */size", async () => {
  await withServer(async (base) => {
    for (const range of ["bytes=20-", "bytes=25-30", "bytes=-0"]) {
      const response = await fetch(`${base}/blob`, { headers: { range } });
      assert.equal(response.status, 416, range);
      assert.equal(response.headers.get("content-range"), "bytes */20");
      assert.equal(response.headers.get("content-type"), "application/problem+json");
      assert.equal((await response.json()).status, 416);
    }
  });
});

Deno.test("bytes: If-Range (a validator this server never sends) gets the whole body", async () => {
  await withServer(async (base) => {
    const response = await fetch(`${base}/blob`, {
      headers: { range: "bytes=0-1", "if-range": '"v1"' },
    });
    assert.equal(response.status, 200);
    assert.equal(await response.text(), TEXT);
  });
});

Deno.test("bytes: a stream that fails after its first chunk closes the connection and reports once", async () => {
  // In a child: Deno's server prints a body that fails once its status is sent, which is
  // expected here, so it is read and checked instead of printed among the test results.
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-net=127.0.0.1", `--lock=${LOCK}`, FAILING_BODY_SERVER],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  while (!/^listening \d+\n/.test(stdout)) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`the server did not start: ${stdout}${await stderr}`);
    stdout += value;
  }
  try {
    const port = Number(/^listening (\d+)/.exec(stdout)![1]);
    const response = await fetch(`http://127.0.0.1:${port}/failing`);
    assert.equal(response.status, 200);
    await assert.rejects(() => response.arrayBuffer());
  } finally {
    await child.stdin.close();
  }
  for (let read = await lines.read(); !read.done; read = await lines.read()) stdout += read.value;
  assert.equal((await child.status).code, 0, await stderr);
  assert.deepEqual(stdout.split("\n").slice(1), ["onError disk gone", ""], "reported once");
  assert.match(await stderr, /^Error: disk gone\n/, "Deno's server says so, once");
  assert.equal((await stderr).match(/disk gone/g)?.length, 1, await stderr);
});

Deno.test("bytes: a stream that fails before its first chunk is a 500 problem, reported once", async () => {
  errors.length = 0;
  await withServer(async (base) => {
    const response = await fetch(`${base}/failsAtOnce`);
    assert.equal(response.status, 500);
    assert.equal(response.headers.get("content-type"), "application/problem+json");
    await response.body?.cancel();
    const strings = await fetch(`${base}/strings`);
    assert.equal(strings.status, 500);
    await strings.body?.cancel();
  });
  assert.equal(errors.length, 2);
  assert.match(String(errors[1]), /Uint8Array/);
});

Deno.test("bytes: a client that goes away cancels the source stream", async () => {
  let cancelled = false;
  let pulled = 0;
  const endless = api({
    endless: op(() =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(64 * 1024));
        },
        cancel() {
          cancelled = true;
        },
      }), http.get),
  });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    createFetch(endless),
  );
  try {
    const response = await fetch(`http://127.0.0.1:${server.addr.port}/endless`);
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    for (let i = 0; i < 100 && !cancelled; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(cancelled, true);
    assert.ok(pulled < 10_000);
  } finally {
    await server.shutdown();
  }
});
