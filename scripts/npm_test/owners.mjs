// The ownership checks of the cross-runtime suite (DESIGN.md, "One engine, one
// owner"), shared by node_owners.mjs and bun_suite.mjs as
// tests/agreement_ownership_test.ts makes them on Deno: a long-running leaf
// behind oauth() asks a question, then waits until it is cancelled. The
// issuer is a real one, in this process: an ES256 key pair made with jose, its
// RFC 8414 metadata and JWKS served on node:http, so that oauth() finds and
// fetches them as it does a provider's. A task is the principal's (issuer and
// subject), not the token's: started by A's first token, A's renewed token
// reads, answers and cancels it; A's expired token gets the guard's 401; B and
// no token find nothing (404, NOT_FOUND, MCP's unknown task) and change
// nothing. Waits are bounded by `within` only to turn a hang into a failure.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { createClient as createWsClient } from "graphql-ws";
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from "jose";
import { z } from "zod";
import { api, ask, op, use } from "@ramify/api/tree";
import { oauth } from "@ramify/api/auth";
import { createTasks } from "@ramify/api/tasks";
import { within } from "./fixture.mjs";

/** The resource the guard serves: its tokens' `aud`. */
const RESOURCE = "https://api.test/api";
/** What A answers the task's question with. */
const ANSWER = { shelf: 3 };
const ALG = "ES256";
const KID = "owners-1";

/** The JSON a node:http request is answered with. */
function json(response, status, value) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
}

/**
 * An issuer on 127.0.0.1: its metadata at RFC 8414's well-known path (the
 * first oauth() asks), its key set at /jwks, and `token(sub, expiresAt,
 * issuedAt?)` to sign an access token for RESOURCE.
 */
async function startIssuer() {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: ALG, use: "sig" };
  // `issuer` is known once the server listens, before any request comes.
  const server = createServer((request, response) => {
    if (request.url === "/.well-known/oauth-authorization-server") {
      return json(response, 200, {
        issuer,
        jwks_uri: `${issuer}/jwks`,
        id_token_signing_alg_values_supported: [ALG],
      });
    }
    if (request.url === "/jwks") return json(response, 200, { keys: [jwk] });
    json(response, 404, { error: "not_found" });
  });
  await within(new Promise((resolve) => server.listen(0, "127.0.0.1", resolve)), "the issuer");
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const token = (sub, expiresAt, issuedAt) =>
    new SignJWT({ scope: "", client_id: "npm-owners" })
      .setProtectedHeader({ alg: ALG, kid: KID, typ: "at+jwt" })
      .setIssuer(issuer)
      .setSubject(sub)
      .setAudience(RESOURCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      // A jti each, so that A's two tokens are two tokens.
      .setJti(crypto.randomUUID())
      .sign(privateKey);
  const close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return { issuer, token, close };
}

/** `shelve({ title })` behind `oauth()`: asks which shelf, then runs until it is cancelled. */
function shelving(issuer) {
  const guard = oauth({ issuer, audience: RESOURCE });
  return api({
    shelve: op(
      async ({ title }, ctx) => {
        const said = await ask(ctx, {
          message: `Which shelf for ${title}?`,
          schema: {
            type: "object",
            properties: { shelf: { type: "integer" } },
            required: ["shelf"],
          },
        });
        const signal = ctx.signal;
        if (!signal.aborted) {
          await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        }
        return { title, shelf: said.action === "accept" ? Number(said.content.shelf) : 0 };
      },
      use(guard),
      {
        // Not destructive: MCP asks no confirmation and warns of no missing hint.
        tags: { longRunning: true, destructive: false },
        input: z.object({ title: z.string() }),
        output: z.object({ title: z.string(), shelf: z.number() }),
      },
    ),
  });
}

/**
 * The issuer, A's tokens (two of one subject, and one expired an hour ago,
 * past the guard's 30 s tolerance), B's, and the tree served by `listen(tree,
 * options)` (the runtime's adapter: `{ port, close }`) with one task runtime.
 * `faults` gathers what reached onError.
 */
export async function ownersServed(listen) {
  const provider = await startIssuer();
  const now = Math.floor(Date.now() / 1000);
  const tokens = {
    a1: await provider.token("ann", "10m"),
    a2: await provider.token("ann", "20m"),
    // Issued two hours ago: wrong in one way only, its exp.
    expired: await provider.token("ann", now - 3600, now - 7200),
    b: await provider.token("bob", "10m"),
  };
  const tasks = createTasks();
  const faults = [];
  const options = { tasks, docs: false, onError: (error) => void faults.push(error) };
  const server = await within(listen(shelving(provider.issuer), options), "listen");
  const base = `http://127.0.0.1:${server.port}`;
  /** Everyone but A: who, their token, what each must get. */
  const others = [
    ["A's expired token", tokens.expired, 401],
    ["B", tokens.b, 404],
    ["no token", undefined, 404],
  ];
  return {
    base,
    tokens,
    faults,
    others,
    close: async () => {
      await server.close();
      await tasks.close();
      await provider.close();
    },
  };
}

/** `Authorization: Bearer <token>`, or no header for no token. */
const bearer = (token) => token === undefined ? {} : { authorization: `Bearer ${token}` };

/** REST's answer: the task's status, or the refusal's status; a 401 is the guard's problem. */
async function restSeen(response) {
  const text = await response.text();
  if (response.ok) return { status: JSON.parse(text).status };
  if (response.status === 401) {
    assert.match(response.headers.get("content-type") ?? "", /^application\/problem\+json/, text);
    assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer error="invalid_token"/);
  }
  return { refused: response.status };
}

/** The ways back over REST, at the task's `Location`. */
function restWays(base) {
  return {
    status: async (token, at) =>
      restSeen(await fetch(new URL(at, base), { headers: bearer(token) })),
    answer: async (token, at) =>
      restSeen(
        await fetch(new URL(`${at}/input`, base), {
          method: "POST",
          headers: { "content-type": "application/json", ...bearer(token) },
          body: JSON.stringify({ answer: ANSWER }),
        }),
      ),
    cancel: async (token, at) =>
      restSeen(await fetch(new URL(at, base), { method: "DELETE", headers: bearer(token) })),
  };
}

/** Its `Location` once the task asks, read by A's renewed token (polled, bounded). */
async function asking(owners, location) {
  const rest = restWays(owners.base);
  let waiting = true;
  const read = async () => {
    while (waiting) {
      const seen = await rest.status(owners.tokens.a2, location);
      if (seen.status === "input_required") return location;
      if (seen.status !== "working") throw new Error(`task ${location}: ${JSON.stringify(seen)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  try {
    return await within(read(), `task ${location} to ask`);
  } finally {
    waiting = false;
  }
}

/** Starts the task over REST as `token`: 202 and `Location`, once it asks. */
async function restStart(owners, token) {
  const response = await fetch(`${owners.base}/shelve`, {
    method: "POST",
    headers: { "content-type": "application/json", ...bearer(token) },
    body: JSON.stringify({ title: "Dune" }),
  });
  const text = await response.text();
  assert.equal(response.status, 202, text);
  const location = response.headers.get("location") ?? "";
  assert.match(location, /^\/\.tasks\/[^/]+$/);
  assert.equal(location, `/.tasks/${JSON.parse(text).id}`);
  return asking(owners, location);
}

/** Runs `check` on a task A started over REST; cancels it as A whatever happens. */
async function withTask(owners, check) {
  const location = await restStart(owners, owners.tokens.a1);
  try {
    await check(location, location.slice("/.tasks/".length));
  } finally {
    await restWays(owners.base).cancel(owners.tokens.a2, location).catch(() => {});
  }
}

/** A's tokens are two, of one subject; the expired one is A's too; B is another subject. */
export function checkPrincipals(owners) {
  const claims = decodeJwt;
  const { a1, a2, expired, b } = owners.tokens;
  assert.notEqual(a1, a2);
  assert.deepEqual([claims(a2).iss, claims(a2).sub], [claims(a1).iss, claims(a1).sub]);
  assert.equal(claims(expired).sub, claims(a1).sub);
  assert.ok(claims(expired).exp < Date.now() / 1000 - 60, "expired past the tolerance");
  assert.notEqual(claims(b).sub, claims(a1).sub);
}

/**
 * REST: started by A (202 + Location); status, input and cancel are refused to
 * the others and change nothing; A's renewed token reads it asking, answers it
 * and cancels it.
 */
export function checkRestOwners(owners) {
  const rest = restWays(owners.base);
  return withTask(owners, async (location) => {
    for (const [who, token, refused] of owners.others) {
      for (const name of ["status", "answer", "cancel"]) {
        assert.deepEqual(await rest[name](token, location), { refused }, `${name} as ${who}`);
      }
    }
    const { a2 } = owners.tokens;
    assert.deepEqual(await rest.status(a2, location), { status: "input_required" }, "unchanged");
    assert.deepEqual(await rest.answer(a2, location), { status: "working" }, "A answers");
    assert.deepEqual(await rest.cancel(a2, location), { status: "cancelled" }, "A cancels");
    assert.deepEqual(await rest.status(a2, location), { status: "cancelled" });
  });
}

/** One GraphQL request over HTTP as `token`. */
async function graphql(owners, token, query, variables) {
  const response = await fetch(`${owners.base}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/graphql-response+json, application/json",
      ...bearer(token),
    },
    body: JSON.stringify({ query, variables }),
  });
  return response.json();
}

const TASK_QUERY = "query Task($id: ID!) { task(id: $id) { id status } }";

/** `query { task(id) }`: A's renewed token finds it asking, A's expired one UNAUTHENTICATED, B and none NOT_FOUND. */
export function checkGraphQLOwners(owners) {
  return withTask(owners, async (_location, id) => {
    const found = await graphql(owners, owners.tokens.a2, TASK_QUERY, { id });
    assert.deepEqual(found, { data: { task: { id, status: "INPUT_REQUIRED" } } });
    const codes = { 401: "UNAUTHENTICATED", 404: "NOT_FOUND" };
    for (const [who, token, refused] of owners.others) {
      const answer = await graphql(owners, token, TASK_QUERY, { id });
      assert.equal(answer.data?.task ?? null, null, `${who}: ${JSON.stringify(answer)}`);
      assert.equal(answer.errors?.[0]?.extensions?.code, codes[refused], who);
    }
  });
}

/** The JSON-RPC answer of `id`: the stream's event that carries it, or the JSON body. */
async function answerOf(response, id) {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    return JSON.parse(text);
  }
  return text.split("\n").filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6))).find((event) => event.id === id);
}

/** A raw MCP 2026-07-28 `tasks/get` of a client declaring the tasks extension, as `token`. */
async function mcpTaskGet(owners, token, taskId) {
  const id = crypto.randomUUID();
  const params = {
    taskId,
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {
        extensions: { "io.modelcontextprotocol/tasks": {} },
      },
    },
  };
  const response = await fetch(`${owners.base}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tasks/get",
      "mcp-name": taskId,
      ...bearer(token),
    },
    body: JSON.stringify({ jsonrpc: "2.0", method: "tasks/get", params, id }),
  });
  const challenge = response.headers.get("www-authenticate");
  if (response.status !== 200) return { status: response.status, challenge };
  return { status: 200, message: await answerOf(response, id) };
}

/** MCP `tasks/get`: A's renewed token reads it asking; expired: HTTP 401; B and none: the unknown task. */
export function checkMcpOwners(owners) {
  return withTask(owners, async (_location, id) => {
    const mine = await mcpTaskGet(owners, owners.tokens.a2, id);
    assert.equal(mine.status, 200);
    assert.equal(mine.message?.error, undefined, JSON.stringify(mine.message));
    assert.equal(mine.message?.result?.status, "input_required", JSON.stringify(mine.message));
    const expired = await mcpTaskGet(owners, owners.tokens.expired, id);
    assert.equal(expired.status, 401);
    assert.match(expired.challenge ?? "", /^Bearer error="invalid_token"/);
    for (const [who, token] of owners.others.slice(1)) {
      const answer = await mcpTaskGet(owners, token, id);
      assert.equal(answer.status, 200, who);
      assert.equal(answer.message?.result, undefined, `${who}: ${JSON.stringify(answer.message)}`);
      assert.equal(
        answer.message?.error?.code,
        -32602,
        `${who}: ${JSON.stringify(answer.message)}`,
      );
    }
  });
}

/**
 * A task started over GraphQL WebSocket with A's token in connectionParams
 * (none on the upgrade) is A's: A's renewed token reads it over REST, B gets 404.
 */
export async function checkWsStartOwners(owners, webSocketImpl) {
  const socket = createWsClient({
    url: `${owners.base.replace("http", "ws")}/graphql`,
    webSocketImpl,
    lazy: true,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${owners.tokens.a1}` },
  });
  const rest = restWays(owners.base);
  let location;
  try {
    const results = [];
    const started = socket.iterate({ query: 'mutation { shelve(title: "Dune") { id status } }' });
    await within(
      (async () => {
        for await (const result of started) results.push(result);
      })(),
      "the mutation over WebSocket",
    );
    assert.equal(results.length, 1, JSON.stringify(results));
    assert.equal(results[0].data?.shelve?.status, "WORKING", JSON.stringify(results[0]));
    location = `/.tasks/${results[0].data.shelve.id}`;
    await asking(owners, location);
    assert.deepEqual(await rest.status(owners.tokens.b, location), { refused: 404 }, "B");
    assert.deepEqual(await rest.status(undefined, location), { refused: 404 }, "no token");
  } finally {
    if (location !== undefined) await rest.cancel(owners.tokens.a2, location).catch(() => {});
    await socket.dispose();
  }
}

/** Nothing of the above reached onError. */
export function checkNoFaults(owners) {
  assert.deepEqual(owners.faults.map(String), []);
}
