// Hostile request bodies against every HTTP surface of one served tree (REST,
// GraphQL over HTTP, MCP), the same cases on Deno (tests/serve), Node and Bun
// (the npm proof): 5, 50 and 500 MiB, with a Content-Length and chunked
// without one, bodies cut off mid-way, dribbled a few bytes at a time, and a
// client that goes on writing after its 413. Each answer must be the
// documented one (a 413 past the 1 MiB default; a 408 once the body deadline
// passes, which the callers set to DRIBBLE_DEADLINE_MS; nothing for a body
// whose client went away),
// the server must answer a normal request on every surface after each case,
// and the process's memory must stay bounded. Bodies go over raw sockets
// (node:net, on all three runtimes), written with back-pressure from one
// reused chunk, so that the client holds nothing of them; a client stops
// writing once an answer arrives, as HTTP/1.1 clients do.
import assert from "node:assert/strict";
import { connect } from "node:net";
import process from "node:process";
import { api, op } from "@ramify/api/tree";
import { MCP_HEADERS, MCP_HELLO } from "./mcp_hello.mjs";

const MiB = 1024 * 1024;
const CHUNK = new Uint8Array(64 * 1024).fill(0x78); // "x"
/** CHUNK as one chunk of a chunked body. */
const FRAMED = chunked(CHUNK);
/** How much the process's memory may grow over the whole suite. */
const RSS_GROWTH = 192 * MiB;
/** How long one case may take before it is a failure (a hang). */
const CASE_MS = 15_000;
/**
 * The body deadline (`bodyTimeoutMs`) the callers give the server, so that a
 * dribbled body meets it within a case.
 */
export const DRIBBLE_DEADLINE_MS = 1_000;

/** The tree served: a POST that reads its body, and a read for the liveness checks. */
export function hostileTree() {
  return api({
    echo: op(({ text }) => text ?? "", { tags: { destructive: false } }),
    ping: op(() => "pong", { tags: { readOnly: true } }),
  });
}

const JSON_HEADERS = { "content-type": "application/json" };

/** The surfaces, each with its POST target and a normal request that must succeed. */
const SURFACES = [
  {
    name: "REST",
    path: "/echo",
    headers: JSON_HEADERS,
    normal: (base) => fetch(`${base}/ping`),
  },
  {
    name: "GraphQL",
    path: "/graphql",
    headers: JSON_HEADERS,
    normal: (base) =>
      fetch(`${base}/graphql`, {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify({ query: "{ ping }" }),
      }),
  },
  {
    name: "MCP",
    path: "/mcp",
    headers: MCP_HEADERS,
    normal: (base) => fetch(`${base}/mcp`, MCP_HELLO),
  },
];

/** The cases: how much is sent, whether it is declared, and where the client gives up. */
const CASES = [
  { name: "5 MiB with Content-Length", size: 5 * MiB, declared: true, status: 413 },
  { name: "5 MiB chunked", size: 5 * MiB, declared: false, status: 413 },
  { name: "50 MiB with Content-Length", size: 50 * MiB, declared: true, status: 413 },
  { name: "50 MiB chunked", size: 50 * MiB, declared: false, status: 413 },
  { name: "500 MiB with Content-Length", size: 500 * MiB, declared: true, status: 413 },
  { name: "500 MiB chunked", size: 500 * MiB, declared: false, status: 413 },
  { name: "5 MiB declared, cut off at 512 KiB", size: 5 * MiB, declared: true, cutAt: MiB / 2 },
  { name: "5 MiB chunked, cut off at 512 KiB", size: 5 * MiB, declared: false, cutAt: MiB / 2 },
  // The client does not stop at the answer: 20 MiB more arrive after the 413.
  {
    name: "50 MiB, 20 MiB more written after the 413",
    size: 50 * MiB,
    declared: true,
    status: 413,
    afterAnswer: 20 * MiB,
  },
  // Under every size limit, but too slow: the deadline answers, not the size.
  {
    name: "1 KiB dribbled, 16 bytes per 100 ms",
    size: 1024,
    declared: true,
    status: 408,
    dribble: 16,
  },
  { name: "1 KiB chunked, dribbled", size: 1024, declared: false, status: 408, dribble: 16 },
];

/**
 * Runs every case on every surface of the server at `base`, asserting the
 * answers, the server alive after each, and the memory growth bounded.
 * Resolves with one line per case (for the report).
 */
export async function checkHostileBodies(base) {
  const lines = [];
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const started = Date.now();
  try {
    for (const surface of SURFACES) {
      for (const hostile of CASES) {
        const what = `${surface.name}: ${hostile.name}`;
        const status = await timed(post(base, surface, hostile), what);
        if (hostile.status !== undefined) assert.equal(status, hostile.status, what);
        await alive(base, what);
        lines.push(`${what}: ${status ?? "no answer (client gone)"}`);
      }
    }
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  const growth = peak - before;
  lines.push(
    `${SURFACES.length * CASES.length} cases in ${Date.now() - started} ms, ` +
      `peak RSS growth ${(growth / MiB).toFixed(1)} MiB`,
  );
  assert.ok(growth < RSS_GROWTH, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
  return lines;
}

/** A normal request on every surface succeeds. */
async function alive(base, after) {
  for (const surface of SURFACES) {
    const response = await timed(surface.normal(base), `${surface.name} after ${after}`);
    await response.arrayBuffer();
    assert.equal(response.status, 200, `${surface.name} answers after ${after}`);
  }
}

/** The status of the answer to one hostile POST, or undefined when the client gave up first. */
function post(base, surface, { size, declared, cutAt, afterAnswer = 0, dribble }) {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = "";
    let closed = false;
    let wake = () => {};
    const answered = () => /^HTTP\/1\.1 (\d{3}) /.exec(received);
    const finish = (status) => {
      socket.destroy();
      resolve(status);
    };
    socket.on("data", (data) => {
      if (received.length < 4096) received += data.toString("latin1");
      if (answered() !== null) wake();
    });
    // A server may close (even reset) the connection once it has answered.
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
      wake();
      const match = answered();
      if (cutAt === undefined && match === null) {
        reject(new Error(`the connection closed without an answer (${received.slice(0, 80)})`));
      } else resolve(match === null ? undefined : Number(match[1]));
    });
    socket.on("connect", async () => {
      const head = Object.entries(surface.headers).map(([name, value]) => `${name}: ${value}\r\n`);
      const framing = declared ? `content-length: ${size}` : "transfer-encoding: chunked";
      socket.write(
        `POST ${surface.path} HTTP/1.1\r\nhost: ${url.host}\r\n${head.join("")}${framing}\r\n\r\n`,
      );
      if (dribble !== undefined) {
        const piece = declared ? CHUNK.subarray(0, dribble) : chunked(CHUNK.subarray(0, dribble));
        for (let sent = 0; sent < size && answered() === null && !closed; sent += dribble) {
          socket.write(piece);
          await new Promise((resume) => setTimeout(resume, 100));
        }
      }
      const limit = dribble !== undefined ? 0 : cutAt ?? size;
      let sent = 0;
      let extra = 0;
      // Past the answer, `afterAnswer` more bytes, whatever the server does with them.
      const more = () => answered() === null || (extra += CHUNK.byteLength) <= afterAnswer;
      while (sent < limit && more() && !closed) {
        const room = socket.write(declared ? CHUNK : FRAMED);
        sent += CHUNK.byteLength;
        if (!room) {
          // Past the answer, a server that stops reading is within its rights: give up then.
          const drained = await new Promise((resume) => {
            wake = () => resume(true);
            socket.once("drain", () => resume(true));
            if (answered() !== null) setTimeout(() => resume(false), 1_000);
          });
          if (!drained) break;
        }
      }
      if (closed) return;
      if (cutAt !== undefined) {
        return finish(answered() === null ? undefined : Number(answered()[1]));
      }
      if (!declared && answered() === null) socket.write("0\r\n\r\n");
      if (answered() === null) await new Promise((resume) => wake = resume);
      const match = answered();
      if (match !== null) finish(Number(match[1]));
    });
  });
}

/** One chunk of a chunked body: its size line, the bytes, CRLF. */
function chunked(bytes) {
  const size = new TextEncoder().encode(`${bytes.byteLength.toString(16)}\r\n`);
  const framed = new Uint8Array(size.byteLength + bytes.byteLength + 2);
  framed.set(size);
  framed.set(bytes, size.byteLength);
  framed.set([13, 10], size.byteLength + bytes.byteLength);
  return framed;
}

function timed(promise, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no end within ${CASE_MS} ms`)), CASE_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
