// The agreement suite: bytes that are not UTF-8, and input nested too deep. Every surface that reads a
// client's bytes reads them strictly as UTF-8 (tree/utf8.ts): a string sent as
// bytes that do not decode is refused with the surface's bad-input answer and
// never reaches the leaf, on REST, GraphQL over HTTP and WebSocket, and MCP;
// the same calls with valid text reach it with the same value everywhere. The
// command line reads its `--input` the same way (tests/cli/input_utf8_test.ts,
// in a real process with a pipe).
import assert from "node:assert/strict";
import { api, op } from "@ramify/api/tree";
import { z } from "zod";
import { serveEverySurface } from "./support/every_surface.ts";

const seen: string[] = [];
const tree = api({
  echo: op(({ text }) => {
    seen.push(text);
    return text;
  }, { input: z.object({ text: z.string() }), tags: { destructive: false } }),
  find: op(({ text }) => {
    seen.push(text);
    return text;
  }, { input: z.object({ text: z.string() }), tags: { readOnly: true } }),
});

const VALID = "Zoë";
const VALID_BYTES = [...new TextEncoder().encode(VALID)];
const MARK = "@@";
const MUTATION = "mutation($text: String!) { echo(text: $text) }";

/** `message` as JSON bytes, its text value `MARK` replaced by `bytes` (raw, not escaped). */
function withBytes(message: unknown, bytes: readonly number[]): Uint8Array<ArrayBuffer> {
  const [before, after] = JSON.stringify(message).split(MARK);
  const encoder = new TextEncoder();
  return new Uint8Array([...encoder.encode(before), ...bytes, ...encoder.encode(after)]);
}

/** A GraphQL request (a POST body or a WebSocket `subscribe`) calling echo with `bytes` as its text. */
const graphqlBody = (bytes: readonly number[]) =>
  withBytes({ query: MUTATION, variables: { text: MARK } }, bytes);
const subscribeMessage = (bytes: readonly number[]) =>
  withBytes({
    id: "1",
    type: "subscribe",
    payload: { query: MUTATION, variables: { text: MARK } },
  }, bytes);

// Bytes no UTF-8 decoder takes: a lone continuation byte, a cut sequence, an
// overlong "/", a surrogate, and a byte UTF-8 never uses.
const INVALID: readonly (readonly number[])[] = [
  [0x61, 0x80, 0x62],
  [0x61, 0xc3],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xff],
];

/** Where the MCP client sent its call, and with which headers (its session, its protocol version). */
interface McpCall {
  readonly url: string;
  readonly headers: Headers;
}

/** A raw WebSocket on the GraphQL endpoint, acknowledged, with its close and next messages. */
async function socketAt(url: string) {
  const socket = new WebSocket(url, "graphql-transport-ws");
  socket.binaryType = "arraybuffer";
  const messages: unknown[] = [];
  const closed = new Promise<number>((resolve) => {
    socket.onclose = (event) => resolve(event.code);
  });
  const acked = new Promise<void>((resolve) => {
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data as string);
      if (message.type === "connection_ack") resolve();
      else messages.push(message);
    };
  });
  await new Promise((resolve) => (socket.onopen = resolve));
  socket.send(JSON.stringify({ type: "connection_init" }));
  await acked;
  return { socket, messages, closed };
}

Deno.test("agreement: bytes that are not UTF-8 are refused on every surface, valid text passes", async () => {
  // The MCP client's own tools/call, kept to be sent again with other bytes.
  let mcpCall: McpCall | undefined;
  const mcpFetch: typeof fetch = (input, init) => {
    if (typeof init?.body === "string" && init.body.includes('"tools/call"')) {
      mcpCall = { url: String(input), headers: new Headers(init.headers) };
    }
    return fetch(input, init);
  };
  const surfaces = await serveEverySurface(tree, { mcpFetch });
  try {
    const { base, mcpClient } = surfaces;

    // Valid text reaches the leaf, the same value everywhere.
    const rest = await fetch(`${base}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: VALID }),
    });
    assert.equal(await rest.json(), VALID);
    const graphql = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: graphqlBody(VALID_BYTES),
    });
    assert.deepEqual(await graphql.json(), { data: { echo: VALID } });
    const ws = await socketAt(`${base.replace("http", "ws")}/graphql`);
    ws.socket.send(subscribeMessage(VALID_BYTES));
    while (!ws.messages.some((m) => (m as { type: string }).type === "complete")) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.deepEqual(ws.messages[0], { id: "1", type: "next", payload: { data: { echo: VALID } } });
    ws.socket.close();
    await ws.closed;
    const tool = await mcpClient.callTool({ name: "echo", arguments: { text: VALID } });
    assert.deepEqual(tool.content, [{ type: "text", text: VALID }]);
    assert.deepEqual(seen, [VALID, VALID, VALID, VALID]);
    const replay: McpCall | undefined = mcpCall;
    assert.ok(replay !== undefined, "the MCP client's call was recorded");

    for (const bytes of INVALID) {
      const name = bytes.map((b) => b.toString(16)).join(" ");
      const restRefused = await fetch(`${base}/echo`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: withBytes({ text: MARK }, bytes),
      });
      assert.equal(restRefused.status, 400, `REST, ${name}`);
      assert.equal(restRefused.headers.get("content-type"), "application/problem+json");
      assert.match((await restRefused.json()).detail, /not valid UTF-8/);

      const graphqlRefused = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/graphql-response+json",
        },
        body: graphqlBody(bytes),
      });
      assert.equal(graphqlRefused.status, 400, `GraphQL, ${name}`);
      const answer = await graphqlRefused.json();
      assert.equal(answer.errors[0].extensions.code, "BAD_REQUEST");
      assert.match(answer.errors[0].message, /not valid UTF-8/);

      const wsRefused = await socketAt(`${base.replace("http", "ws")}/graphql`);
      wsRefused.socket.send(subscribeMessage(bytes));
      assert.equal(await wsRefused.closed, 4400, `GraphQL over WebSocket, ${name}`);
      assert.deepEqual(wsRefused.messages, []);

      const mcpRefused: Response = await fetch(replay.url, {
        method: "POST",
        headers: replay.headers,
        body: withBytes({
          jsonrpc: "2.0",
          id: 99,
          method: "tools/call",
          params: { name: "echo", arguments: { text: MARK } },
        }, bytes),
      });
      assert.equal(mcpRefused.status, 400, `MCP, ${name}`);
      assert.deepEqual(await mcpRefused.json(), {
        jsonrpc: "2.0",
        error: { code: -32700, message: "Parse error: the body is not valid UTF-8" },
        id: null,
      });
    }
    assert.deepEqual(seen, [VALID, VALID, VALID, VALID], "no refused call reached the leaf");

    // MCP still serves after the refusals.
    const again = await mcpClient.callTool({ name: "echo", arguments: { text: "\uFFFD" } });
    assert.deepEqual(again.content, [{ type: "text", text: "\uFFFD" }]);
  } finally {
    await surfaces.close();
  }
});

// Percent-encoding that does not spell UTF-8 (a lone byte, a cut sequence) and
// a stray "%": refused where the WHATWG form parser would give U+FFFD or keep it.
const MALFORMED = ["%FF", "a%C3", "%E2%82", "100%", "%zz"];

Deno.test("agreement: a query string whose percent-encoding is not UTF-8 is refused by REST and GraphQL GET", async () => {
  const surfaces = await serveEverySurface(tree);
  try {
    const { base } = surfaces;
    const query = encodeURIComponent("query($text: String!) { find(text: $text) }");
    const variables = (encoded: string) => `%7B%22text%22%3A%22${encoded}%22%7D`;
    seen.length = 0;
    const valid = encodeURIComponent(VALID);
    assert.equal(await (await fetch(`${base}/find?text=${valid}`)).json(), VALID);
    const graphql = await fetch(`${base}/graphql?query=${query}&variables=${variables(valid)}`);
    assert.deepEqual(await graphql.json(), { data: { find: VALID } });
    for (const encoded of MALFORMED) {
      const rest = await fetch(`${base}/find?text=${encoded}`);
      assert.equal(rest.status, 400, `REST, ${encoded}`);
      assert.match((await rest.json()).detail, /malformed percent-encoding/);
      const refused = await fetch(
        `${base}/graphql?query=${query}&variables=${variables(encoded)}`,
        {
          headers: { accept: "application/graphql-response+json" },
        },
      );
      assert.equal(refused.status, 400, `GraphQL, ${encoded}`);
      const answer = await refused.json();
      assert.equal(answer.errors[0].extensions.code, "BAD_REQUEST");
      assert.match(answer.errors[0].message, /malformed percent-encoding/);
    }
    assert.deepEqual(seen, [VALID, VALID], "no refused call reached the leaf");
  } finally {
    await surfaces.close();
  }
});

Deno.test("agreement: input nested past 64 levels is refused by REST, GraphQL and MCP; at 64 it passes", async () => {
  const nested: number[] = [];
  const deepTree = api({
    keep: op(({ v }) => {
      nested.push(JSON.stringify(v).length);
      return 1;
    }, { input: z.object({ v: z.unknown() }), tags: { destructive: false } }),
  });
  const surfaces = await serveEverySurface(deepTree);
  try {
    const { base, mcpClient } = surfaces;
    // The input object is level 1, so `v` holding `levels - 1` arrays reaches `levels`.
    const reaching = (levels: number) =>
      JSON.parse("[".repeat(levels - 1) + "]".repeat(levels - 1));
    const viaRest = (v: unknown) =>
      fetch(`${base}/keep`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ v }),
      });
    const viaGraphql = (v: unknown) =>
      fetch(`${base}/graphql`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/graphql-response+json",
        },
        body: JSON.stringify({ query: "mutation($v: JSON) { keep(v: $v) }", variables: { v } }),
      });
    const viaMcp = (v: unknown) => mcpClient.callTool({ name: "keep", arguments: { v } });

    assert.equal((await viaRest(reaching(64))).status, 200);
    assert.deepEqual(await (await viaGraphql(reaching(64))).json(), { data: { keep: 1 } });
    assert.deepEqual((await viaMcp(reaching(64))).content, [{ type: "text", text: "1" }]);
    assert.equal(nested.length, 3);

    const rest = await viaRest(reaching(65));
    assert.equal(rest.status, 400);
    assert.equal((await rest.json()).detail, "The input nests deeper than 64 levels");
    const graphql = await viaGraphql(reaching(65));
    assert.equal(graphql.status, 400);
    assert.match((await graphql.json()).errors[0].message, /nest deeper than 64 levels/);
    const mcp = await viaMcp(reaching(65));
    assert.equal(mcp.isError, true);
    assert.match(JSON.stringify(mcp.content), /400.*The input nests deeper than 64 levels/);
    // Far past it, as a hostile client sends: still a refusal, not a crash.
    const hostile = await viaMcp(reaching(100_000));
    assert.equal(hostile.isError, true);
    assert.equal(nested.length, 3, "no refused call reached the leaf");
  } finally {
    await surfaces.close();
  }
});
