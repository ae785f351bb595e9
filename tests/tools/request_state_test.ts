// The `requestState` of a 2026-07-28 call asking over several rounds: sealed
// with the server's `requestStateKeys` (HMAC-SHA256), so that a round begun on
// one instance ends on another sharing the keys, a key rotates (the new one
// first, the old one still opening what it sealed), and a state tampered
// with, sealed by another server or with a key dropped since is refused
// (-32602) before the handler runs. Raw HTTP, as a client of the revision
// sends it.
import assert from "node:assert/strict";
import { api, ask, HttpError, op } from "@ramify/api/tree";
import { createMcpHandler, type McpHandlerOptions } from "@ramify/api/tools";

const CURRENT = "the current key, of at least 32 bytes";
const PREVIOUS = "the previous key, also 32 bytes long";
const NAME = {
  type: "object",
  properties: { name: { type: "string" } },
  required: ["name"],
} as const;

let runs = 0;
const tree = api({
  // Two named questions: the first one's answer must come back with the second.
  greet: op(async (_input, ctx) => {
    runs++;
    const first = await ask(ctx, { key: "first", message: "First name?", schema: NAME });
    const last = await ask(ctx, { key: "last", message: "Last name?", schema: NAME });
    if (first.action !== "accept" || last.action !== "accept") throw new HttpError(409, "unnamed");
    return `Hello, ${first.content.name} ${last.content.name}`;
  }, { tags: { readOnly: true } }),
  // Two questions at once: both go back in one round.
  pair: op(async (_input, ctx) => {
    const [left, right] = await Promise.all([
      ask(ctx, { key: "left", message: "Left?", schema: NAME }),
      ask(ctx, { key: "right", message: "Right?", schema: NAME }),
    ]);
    if (left.action !== "accept" || right.action !== "accept") throw new HttpError(409, "unnamed");
    return `${left.content.name} and ${right.content.name}`;
  }, { tags: { readOnly: true } }),
});

function server(opts: McpHandlerOptions = {}) {
  return createMcpHandler(tree, { warnMissingHints: false, onError: () => {}, ...opts });
}

interface Answer {
  readonly result?: {
    resultType?: string;
    inputRequests?: Record<string, { method: string }>;
    requestState?: string;
    content?: { text: string }[];
  };
  readonly error?: { code: number; message: string };
}

/** A `tools/call` of `greet` from a client that answers forms, with what earlier rounds gave. */
async function call(
  mcp: ReturnType<typeof server>,
  round: { inputResponses?: Record<string, unknown>; requestState?: string } = {},
  tool = "greet",
): Promise<Answer> {
  const response = await mcp(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": tool,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: tool,
          arguments: {},
          ...round,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
          },
        },
      }),
    }),
  );
  const text = await response.text();
  const data = text.split("\n").find((line) => line.startsWith("data: "));
  return JSON.parse(data === undefined ? text : data.slice(6));
}

const answer = (name: string) => ({ action: "accept", content: { name } });

/** The state of the first round's `input_required`, asking `first`. */
async function firstRound(mcp: ReturnType<typeof server>): Promise<string> {
  const asked = await call(mcp);
  assert.equal(asked.result?.resultType, "input_required");
  assert.deepEqual(Object.keys(asked.result?.inputRequests ?? {}), ["first"]);
  assert.equal(typeof asked.result?.requestState, "string");
  return asked.result!.requestState!;
}

Deno.test("requestState: a round begun on one instance ends on another sharing the keys", async () => {
  const one = server({ requestStateKeys: [CURRENT] });
  const other = server({ requestStateKeys: [CURRENT] });
  try {
    const state = await firstRound(one);
    const second = await call(other, {
      inputResponses: { first: answer("Ada") },
      requestState: state,
    });
    assert.deepEqual(Object.keys(second.result?.inputRequests ?? {}), ["last"]);
    assert.notEqual(second.result?.requestState, state);
    // The first answer rides in the sealed state only: this round sends the last one alone.
    const done = await call(one, {
      inputResponses: { last: answer("Lovelace") },
      requestState: second.result?.requestState,
    });
    assert.equal(done.result?.content?.[0].text, "Hello, Ada Lovelace");
  } finally {
    await one.close();
    await other.close();
  }
});

Deno.test("input rounds: questions asked together go back in one round", async () => {
  const mcp = server({ requestStateKeys: [CURRENT] });
  try {
    const asked = await call(mcp, {}, "pair");
    assert.deepEqual(Object.keys(asked.result?.inputRequests ?? {}).sort(), ["left", "right"]);
    // One answered: the other is asked again, the answer given kept in the state.
    const half = await call(mcp, {
      inputResponses: { left: answer("Ada") },
      requestState: asked.result?.requestState,
    }, "pair");
    assert.deepEqual(Object.keys(half.result?.inputRequests ?? {}), ["right"]);
    const done = await call(mcp, {
      inputResponses: { right: answer("Grace") },
      requestState: half.result?.requestState,
    }, "pair");
    assert.equal(done.result?.content?.[0].text, "Ada and Grace");
  } finally {
    await mcp.close();
  }
});

Deno.test("requestState: a rotated key opens what its predecessor sealed until it is dropped", async () => {
  const before = server({ requestStateKeys: [PREVIOUS] });
  const rotated = server({ requestStateKeys: [CURRENT, PREVIOUS] });
  const dropped = server({ requestStateKeys: [CURRENT] });
  try {
    const state = await firstRound(before);
    const round = { inputResponses: { first: answer("Ada") }, requestState: state };
    assert.deepEqual(Object.keys((await call(rotated, round)).result?.inputRequests ?? {}), [
      "last",
    ]);
    const refused = await call(dropped, round);
    assert.equal(refused.error?.code, -32602);
    // What the rotated server seals opens where only the new key is left.
    const sealed = await firstRound(rotated);
    const kept = await call(dropped, {
      inputResponses: { first: answer("Ada") },
      requestState: sealed,
    });
    assert.deepEqual(Object.keys(kept.result?.inputRequests ?? {}), ["last"]);
  } finally {
    await before.close();
    await rotated.close();
    await dropped.close();
  }
});

Deno.test("requestState: tampered, or sealed by another server, is refused before the handler runs", async () => {
  const mcp = server({ requestStateKeys: [CURRENT] });
  const stranger = server();
  const stranger2 = server();
  try {
    const state = await firstRound(mcp);
    const foreign = await firstRound(stranger);
    // Without keys each server has its own: the states of one do not open on another.
    const unshared = await firstRound(stranger2);
    const first = { first: answer("Ada") };
    for (
      const forged of [
        `${state}-TAMPERED`,
        state.replace(/\.[^.]+$/, ".AAAA"),
        foreign,
        "{}",
      ]
    ) {
      const before = runs;
      const refused = await call(mcp, { inputResponses: first, requestState: forged });
      assert.equal(refused.error?.code, -32602, forged);
      assert.equal(runs, before, `the handler ran for ${forged}`);
    }
    assert.equal(
      (await call(stranger, { inputResponses: first, requestState: unshared })).error?.code,
      -32602,
    );
  } finally {
    await mcp.close();
    await stranger.close();
    await stranger2.close();
  }
});

Deno.test("requestStateKeys: none, or one shorter than 32 bytes, is refused when the server is made", () => {
  assert.throws(() => server({ requestStateKeys: [] }), RangeError);
  assert.throws(
    () => server({ requestStateKeys: [CURRENT, "short"] }),
    /requestStateKeys\[1\] must be a string or Uint8Array of at least 32 bytes/,
  );
  assert.throws(() => server({ requestStateKeys: [new Uint8Array(31)] }), RangeError);
  const fine = server({ requestStateKeys: [crypto.getRandomValues(new Uint8Array(32))] });
  return fine.close();
});
