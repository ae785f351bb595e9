// Resumable call streams of 2025-era sessions (SEP-1699), over the network:
// a priming event with an id and a `retry`, an id on every message, a stream
// closed mid-call to poll whose client gets the answer with `Last-Event-ID`
// (as it comes, and replayed once the call is over), the SDK's own client
// resuming by itself, and what a client may not do: read another session's
// stream, replay an unknown or malformed event id. Older revisions, and
// `resumability: false`, get streams as before. A call answered at once is
// JSON: there is nothing to resume.
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { api, op } from "@ramify/api/tree";
import { createMcpHandler, type McpHandlerOptions } from "@ramify/api/tools";

/** Lets the pending `slow` calls answer. */
let release = () => {};
let released = Promise.resolve();
function hold() {
  released = new Promise((resolve) => release = resolve);
}

/**
 * `slow` answers after a moment: a call answered at once goes back as JSON,
 * with nothing to resume; one still running gets the stream.
 */
function soon() {
  hold();
  setTimeout(release, 30);
}

const tree = api({
  ping: op(() => "pong", { tags: { readOnly: true } }),
  slow: op(async () => {
    await released;
    return "done";
  }, { tags: { readOnly: true } }),
});

const ACCEPT = "application/json, text/event-stream";

async function serving(
  opts: McpHandlerOptions,
  run: (url: string) => Promise<void>,
): Promise<void> {
  const mcp = createMcpHandler(tree, { warnMissingHints: false, ...opts });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
  try {
    await run(`http://127.0.0.1:${server.addr.port}/mcp`);
  } finally {
    release();
    await mcp.close();
    await server.shutdown();
  }
}

/** A session of that revision: its id and the headers its requests carry. */
async function session(url: string, revision = "2025-11-25") {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: revision,
        capabilities: {},
        clientInfo: { name: "resume", version: "1.0.0" },
      },
    }),
  });
  await response.body?.cancel();
  const id = response.headers.get("mcp-session-id")!;
  return {
    id,
    headers: {
      "content-type": "application/json",
      accept: ACCEPT,
      "mcp-session-id": id,
      "mcp-protocol-version": revision,
    },
  };
}

function call(url: string, headers: Record<string, string>, name: string, id = 1) {
  return fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name } }),
  });
}

/** The SSE events of a body: id, retry and data of each. */
function eventsOf(text: string) {
  return text.split("\n\n").filter((block) => block.trim() !== "").map((block) => {
    const field = (name: string) =>
      block.split("\n").find((line) => line.startsWith(`${name}:`))?.slice(name.length + 1).trim();
    return { id: field("id"), retry: field("retry"), data: field("data") };
  });
}

function resumeGet(url: string, session: string, lastEventId: string) {
  return fetch(url, {
    headers: {
      accept: "text/event-stream",
      "mcp-session-id": session,
      "last-event-id": lastEventId,
    },
  });
}

Deno.test("MCP resumability: a priming event with id and retry opens a call's stream; each message has an id", async () => {
  await serving({ resumability: { retryMs: 250 } }, async (url) => {
    const { headers } = await session(url);
    soon();
    const events = eventsOf(await (await call(url, headers, "slow")).text());
    assert.equal(events.length, 2);
    assert.deepEqual({ retry: events[0].retry, data: events[0].data }, { retry: "250", data: "" });
    assert.ok(events[0].id !== undefined && events[1].id !== undefined);
    assert.notEqual(events[0].id, events[1].id);
    assert.equal(JSON.parse(events[1].data!).result.content[0].text, "done");
    // Answered at once: JSON, nothing to resume.
    const quick = await call(url, headers, "ping");
    assert.equal(quick.headers.get("content-type"), "application/json");
    assert.equal((await quick.json()).result.content[0].text, "pong");
  });
});

Deno.test("MCP resumability: a stream closed to poll resumes with Last-Event-ID, live and replayed", async () => {
  await serving({ resumability: { pollAfterMs: 20, retryMs: 10 } }, async (url) => {
    hold();
    const { id, headers } = await session(url);
    // The suite's clients name an older revision than they negotiated: the session's counts.
    const closed = eventsOf(
      await (await call(url, { ...headers, "mcp-protocol-version": "2025-03-26" }, "slow")).text(),
    );
    assert.deepEqual(closed.map(({ data }) => data), [""], "only the priming event, then closed");
    const live = await resumeGet(url, id, closed[0].id!);
    assert.equal(live.status, 200);
    release();
    const resumed = eventsOf(await live.text());
    assert.deepEqual(resumed.map(({ data }) => JSON.parse(data!).result.content[0].text), ["done"]);
    // Over: the same id replays the answer from the store, and the stream ends.
    const again = eventsOf(await (await resumeGet(url, id, closed[0].id!)).text());
    assert.deepEqual(again, resumed);
    // After the answer's own id, nothing is left.
    assert.deepEqual(eventsOf(await (await resumeGet(url, id, resumed[0].id!)).text()), []);
  });
});

Deno.test("MCP resumability: the SDK's client gets a polled call's answer by itself", async () => {
  await serving({ resumability: { pollAfterMs: 20, retryMs: 10 } }, async (url) => {
    hold();
    const resumes: string[] = [];
    const counting = ((input: string | URL, init?: RequestInit) => {
      const last = new Headers(init?.headers).get("last-event-id");
      // The call answers once its client has come back for it.
      if (init?.method === "GET" && last !== null) {
        resumes.push(last);
        release();
      }
      return fetch(input, init);
    }) as typeof fetch;
    const client = new Client({ name: "resuming", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: counting }));
    try {
      const result = await client.callTool({ name: "slow", arguments: {} });
      assert.deepEqual(result.content, [{ type: "text", text: "done" }]);
      assert.equal(resumes.length, 1, "one GET with Last-Event-ID");
    } finally {
      await client.close();
    }
  });
});

Deno.test("MCP resumability: another session's stream, a malformed or unknown event id are refused", async () => {
  await serving({ resumability: { pollAfterMs: 20 } }, async (url) => {
    hold();
    const mine = await session(url);
    const other = await session(url);
    // Closed to poll while the call waits: resumable, by its own session only.
    const [priming] = eventsOf(await (await call(url, mine.headers, "slow")).text());
    const stream = priming.id!.split(".")[0];
    const bad = [
      [other.id, priming.id!],
      [mine.id, `${stream}.99`],
      [mine.id, `${stream}.-1`],
      [mine.id, `${stream}.1e0`],
      [mine.id, "../../etc"],
      [mine.id, "x".repeat(10_000)],
    ];
    for (const [session, eventId] of bad) {
      const response = await resumeGet(url, session, eventId);
      assert.equal(response.status, 400, eventId.slice(0, 40));
      assert.equal((await response.json()).error.message, "Unknown or expired event ID");
    }
    const own = await resumeGet(url, mine.id, priming.id!);
    assert.equal(own.status, 200, "its own session's");
    release();
    assert.equal(eventsOf(await own.text()).length, 1);
  });
});

Deno.test("MCP resumability: a stream delivered whole is not kept: there is nothing to resume", async () => {
  await serving({}, async (url) => {
    const { id, headers } = await session(url);
    soon();
    const [priming] = eventsOf(await (await call(url, headers, "slow")).text());
    const gone = await resumeGet(url, id, priming.id!);
    assert.equal(gone.status, 400);
    await gone.body?.cancel();
  });
});

Deno.test("MCP resumability: older revisions and resumability: false get streams as before", async () => {
  await serving({}, async (url) => {
    const { headers } = await session(url, "2025-06-18");
    soon();
    const events = eventsOf(await (await call(url, headers, "slow")).text());
    // Their clients would choke on an empty data field: no priming event.
    assert.equal(events.length, 1);
    assert.equal(JSON.parse(events[0].data!).result.content[0].text, "done");
  });
  await serving({ resumability: false }, async (url) => {
    const { id, headers } = await session(url);
    soon();
    const events = eventsOf(await (await call(url, headers, "slow")).text());
    assert.deepEqual(events.map((event) => event.id), [undefined]);
    const get = await resumeGet(url, id, "anything.0");
    assert.equal(get.status, 405);
    await get.body?.cancel();
  });
});

Deno.test("MCP resumability: past maxStreams the least recently used stream is forgotten", async () => {
  await serving({ resumability: { maxStreams: 2, pollAfterMs: 20 } }, async (url) => {
    hold();
    const { id, headers } = await session(url);
    const polled = async (n: number) =>
      eventsOf(await (await call(url, headers, "slow", n)).text())[0].id!;
    const first = await polled(1);
    const second = await polled(2);
    // Replaying the first makes it the most recently used: the third call evicts the second.
    await (await resumeGet(url, id, first)).body?.cancel();
    await polled(3);
    const kept = await resumeGet(url, id, first);
    assert.equal(kept.status, 200);
    await kept.body?.cancel();
    const gone = await resumeGet(url, id, second);
    assert.equal(gone.status, 400);
    await gone.body?.cancel();
  });
});

Deno.test("MCP resumability: a bad option is refused when the handler is made", () => {
  assert.throws(
    () => createMcpHandler(tree, { resumability: { pollAfterMs: -1 } }),
    /resumability.pollAfterMs must be a positive integer, got -1/,
  );
});
