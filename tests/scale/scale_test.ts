// The example as it is deployed past one process: one real redis-server, a
// real HAProxy (round robin, no stickiness, health checks) and three
// instances of the example started as `deno task server` starts one; every
// request goes through the balancer, so consecutive requests land on
// different instances. Each scenario is one step over the same deployment
// (`SCENARIOS`, in order; the last ones kill instances and restart them).
import assert from "node:assert/strict";
import { createClient as createWsClient } from "graphql-ws";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
// The 2025-era client most MCP users run (the v1 SDK).
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { DEV_TOKEN } from "../../examples/bookstore.ts";
import { ensureCommands } from "../support/commands.ts";
import { type Balancer, haproxyMissing, withHaproxy } from "../support/haproxy.ts";
import { type Instance, withInstances } from "../support/instances.ts";
import { redisMissing, type RedisServer, withRedis } from "../support/redis.ts";

const missing = [await redisMissing(), await haproxyMissing()].filter((why) => why !== undefined);
const ignore = missing.length > 0;
if (ignore) console.warn(`skipped: ${missing.join("; ")}`);
const wrkMissing = (await ensureCommands({ wrk: "wrk" })).length > 0
  ? "wrk could not be installed (apt-get install wrk)"
  : undefined;
if (wrkMissing !== undefined) console.warn(`skipped the wrk scenario: ${wrkMissing}`);

/** The rate limit the instances run with: requests that may change something, per caller per minute. */
const PER_MINUTE = 500;

/** What a scenario runs against: the deployment, reached through `url` (the balancer). */
interface Scale {
  readonly url: string;
  readonly balancer: Balancer;
  readonly instances: readonly Instance[];
  readonly redis: RedisServer;
  /** A request through the balancer, as staff (the bearer token); the body as JSON. */
  call(method: string, path: string, body?: unknown): Promise<Answer>;
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
  /** The instance that answered, as HAProxy names it. */
  readonly backend: string | null;
}

interface Scenario {
  readonly name: string;
  readonly ignore?: boolean;
  run(scale: Scale): Promise<void>;
}

/** Waits for what other processes do; gives up after 30 s (a guard against hangs). */
async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!await done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type BookAnswer = { id: string; title: string; author: string };

/** Adds a book through the balancer. */
async function add(scale: Scale, title: string): Promise<BookAnswer & { backend: string }> {
  const added = await scale.call("POST", "/books/add", { title, author: "Scale" });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  return { ...added.body as BookAnswer, backend: added.backend! };
}

/** The titles an SSE subscriber of `/books/events` receives, as they come. */
function sseSubscriber(url: string, signal: AbortSignal) {
  const titles: string[] = [];
  const backend = fetch(`${url}/books/events`, { signal }).then((response) => {
    assert.equal(response.status, 200);
    (async () => {
      let pending = "";
      for await (const text of response.body!.pipeThrough(new TextDecoderStream())) {
        pending += text;
        const events = pending.split("\n\n");
        pending = events.pop()!;
        for (const event of events) {
          const data = event.split("\n").find((line) => line.startsWith("data: "));
          if (data !== undefined) titles.push(JSON.parse(data.slice(6)).title);
        }
      }
    })().catch(() => {});
    return response.headers.get("x-backend");
  });
  return { titles, backend };
}

/** An MCP client of either SDK, as far as these scenarios use it. */
interface McpCaller {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** 15 tool calls of one client through the balancer: every one succeeds, on every instance. */
async function fifteenCalls(
  scale: Scale,
  connect: (fetch: typeof globalThis.fetch) => Promise<McpCaller>,
): Promise<void> {
  const backends = new Set<string>();
  const client = await connect(async (input, init) => {
    const response = await fetch(input, init);
    backends.add(response.headers.get("x-backend") ?? "");
    return response;
  });
  try {
    for (let i = 0; i < 15; i++) {
      const found = await client.callTool({
        name: "catalog.search",
        arguments: { q: "dune", limit: 5 },
      }) as { isError?: boolean };
      assert.notEqual(found.isError, true, JSON.stringify(found));
    }
  } finally {
    await client.close();
  }
  assert.equal(backends.size, scale.instances.length, [...backends].join());
}

const SCENARIOS: Scenario[] = [
  {
    name: "a book added through the balancer is read the same from every instance",
    async run(scale) {
      const books = [await add(scale, "Everywhere 1"), await add(scale, "Everywhere 2")];
      // Ids come from one counter in Redis, whichever instance added the book.
      assert.equal(Number(books[1].id), Number(books[0].id) + 1);
      const seen = new Set<string>();
      for (let i = 0; i < 9; i++) {
        const read = await scale.call("GET", `/books/${books[0].id}`);
        assert.deepEqual([read.status, read.body], [200, {
          id: books[0].id,
          title: "Everywhere 1",
          author: "Scale",
        }]);
        seen.add(read.backend!);
      }
      assert.deepEqual([...seen].sort(), scale.instances.map((instance) => instance.name));
      const listed = await scale.call("GET", "/books/list");
      const titles = (listed.body as BookAnswer[]).map((book) => book.title);
      // Seeded once, by whichever instance started first: not once per instance.
      assert.equal(titles.filter((title) => title === "Dune").length, 1);
      assert.ok(titles.includes("Everywhere 2"));
    },
  },
  {
    name: "MCP 2026-07-28 (per request, the SDK v2 client): 15 tool calls through the balancer",
    run: (scale) =>
      fifteenCalls(scale, async (fetch) => {
        const client = new Client({ name: "scale", version: "1.0.0" }, {
          versionNegotiation: { mode: { pin: "2026-07-28" } },
        });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${scale.url}/mcp`), { fetch }),
        );
        return client;
      }),
  },
  {
    // A session is a record in Redis: its requests may reach any instance.
    name: "MCP 2025 sessions (the v1 SDK client): 15 tool calls through the balancer",
    run: (scale) =>
      fifteenCalls(scale, async (fetch) => {
        const client = new ClientV1({ name: "scale", version: "1.0.0" });
        await client.connect(new TransportV1(new URL(`${scale.url}/mcp`), { fetch }));
        return client;
      }),
  },
  {
    name: "SSE and GraphQL subscribers through the balancer receive books added on other instances",
    async run(scale) {
      const leaving = new AbortController();
      const sse = [0, 1, 2].map(() => sseSubscriber(scale.url, leaving.signal));
      const socket = createWsClient({
        url: `${scale.url.replace("http", "ws")}/graphql`,
        retryAttempts: 0,
      });
      const graphql: string[] = [];
      const subscription = socket.iterate<{ booksEvents: { title: string } }>({
        query: "subscription { booksEvents { title } }",
      });
      const graphqlDone = (async () => {
        for await (const result of subscription) graphql.push(result.data!.booksEvents.title);
      })().catch(() => {});
      try {
        const everyone = [...sse.map((s) => s.titles), graphql];
        // A subscription is open once it has seen an event: probe until each has.
        let n = 0;
        await until("every subscriber's first event", async () => {
          await add(scale, `Probe ${++n}`);
          return everyone.every((titles) => titles.some((title) => title.startsWith("Probe")));
        });
        const on = await Promise.all(sse.map((s) => s.backend));
        assert.ok(new Set(on).size > 1, `subscribers spread over instances: ${on}`);
        const added = [await add(scale, "Fanned 1"), await add(scale, "Fanned 2")];
        assert.ok(added.some((book) => on.some((backend) => backend !== book.backend)));
        await until("the fanned-out books", () => everyone.every((titles) => titles.length > n));
        await until(
          "both fanned-out books",
          () =>
            everyone.every((titles) => titles.filter((t) => t.startsWith("Fanned")).length >= 2),
        );
        for (const titles of everyone) {
          assert.deepEqual(titles.filter((t) => t.startsWith("Fanned")), ["Fanned 1", "Fanned 2"]);
        }
      } finally {
        leaving.abort();
        await subscription.return?.();
        await socket.dispose();
        await graphqlDone;
      }
    },
  },
  {
    name: "an SSE client whose instance is killed resumes through the balancer with Last-Event-ID",
    async run(scale) {
      const leaving = new AbortController();
      const first = await fetch(`${scale.url}/books/events`, { signal: leaving.signal });
      const backend = first.headers.get("x-backend")!;
      const victim = scale.instances.find((instance) => instance.name === backend)!;
      const reader = first.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      let n = 0;
      // Open once it has seen an event: probe until it has.
      const probing = (async () => {
        while (!/^id: /m.test(text)) {
          await add(scale, `Resume probe ${++n}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      while (!/^id: /m.test(text)) text += (await reader.read()).value ?? "";
      await probing;
      // Every probe it will ever see: then its last id is the newest event.
      await until("the probes", async () => {
        text += await Promise.race([
          reader.read().then((step) => step.value ?? ""),
          new Promise<string>((resolve) => setTimeout(() => resolve(""), 200)),
        ]);
        return (text.match(/^id: /gm) ?? []).length >= n;
      });
      const ids = [...text.matchAll(/^id: (.+)$/gm)].map((match) => match[1]);
      const lastEventId = ids.at(-1)!;
      await victim.kill();
      await scale.balancer.until("DOWN", [victim.name]);
      leaving.abort();
      // Published while the client is away, on the instances left.
      const missed = [await add(scale, "Missed 1"), await add(scale, "Missed 2")];
      const resumed = await fetch(`${scale.url}/books/events?limit=2`, {
        headers: { "last-event-id": lastEventId },
      });
      assert.equal(resumed.status, 200);
      assert.notEqual(resumed.headers.get("x-backend"), victim.name);
      const body = await resumed.text();
      const titles = [...body.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]).title);
      assert.deepEqual(titles, missed.map((book) => book.title), "exactly the events it missed");
      assert.doesNotMatch(body, /event: gap/);
      const resumedIds = [...body.matchAll(/^id: (.+)$/gm)].map((match) => match[1]);
      assert.ok(resumedIds.every((id) => !ids.includes(id)), "none it had seen");
      await victim.restart();
      await scale.balancer.until("UP", [victim.name]);
    },
  },
  {
    name: `a rate limit of ${PER_MINUTE} a minute holds across the instances`,
    async run(scale) {
      // A caller of its own, so that no other scenario's requests count.
      const token = `Bearer probe-${crypto.randomUUID()}`;
      const statuses: number[] = [];
      const backends = new Set<string>();
      const post = async () => {
        const response = await fetch(`${scale.url}/books/add`, {
          method: "POST",
          headers: { authorization: token, "content-type": "application/json" },
          body: JSON.stringify({ title: "Never added", author: "Probe" }),
        });
        await response.body?.cancel();
        statuses.push(response.status);
        backends.add(response.headers.get("x-backend")!);
        if (response.status === 429) refusals.push(response);
        return response;
      };
      const refusals: Response[] = [];
      const started = Date.now();
      for (let sent = 0; sent < PER_MINUTE + 50; sent += 25) {
        await Promise.all(Array.from({ length: 25 }, post));
      }
      // The limit comes first: an unknown token is a 401 once allowed through.
      // A minute's quota at once, and what it earns back while the test runs.
      const allowed = statuses.filter((status) => status === 401).length;
      const earned = Math.ceil((Date.now() - started) / 60_000 * PER_MINUTE);
      assert.ok(allowed >= PER_MINUTE && allowed <= PER_MINUTE + earned, `${allowed} allowed`);
      assert.equal(statuses.filter((status) => status === 429).length, statuses.length - allowed);
      assert.equal(backends.size, scale.instances.length, "every instance answered");
      // A request sent now may pass on what the limit earned back meanwhile: read one it refused.
      const refused = refusals[0];
      assert.equal(refused.status, 429);
      assert.match(refused.headers.get("ratelimit-policy")!, new RegExp(`q=${PER_MINUTE};w=60`));
      assert.ok(Number(refused.headers.get("retry-after")) >= 1);
    },
  },
  {
    name: "a POST retried with one Idempotency-Key on two instances creates one book",
    async run(scale) {
      const key = `"${crypto.randomUUID()}"`;
      const send = () =>
        fetch(`${scale.url}/books/add`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${DEV_TOKEN}`,
            "content-type": "application/json",
            "idempotency-key": key,
          },
          body: JSON.stringify({ title: "Once only", author: "Retry" }),
        });
      const first = await send();
      const again = await send();
      assert.equal(first.status, 201);
      assert.equal(again.status, 201);
      assert.notEqual(first.headers.get("x-backend"), again.headers.get("x-backend"));
      assert.equal(again.headers.get("idempotent-replayed"), "true");
      assert.deepEqual(await again.json(), await first.json());
      const listed = await scale.call("GET", "/books/list");
      const copies = (listed.body as BookAnswer[]).filter((book) => book.title === "Once only");
      assert.equal(copies.length, 1);
    },
  },
  {
    name: "wrk through the balancer while an instance is killed: under 1% failed requests",
    ignore: wrkMissing !== undefined,
    async run(scale) {
      const victim = scale.instances[1];
      const pinned = (await ensureCommands({ taskset: "util-linux" })).length === 0;
      const connections = 8;
      const wrk = ["wrk", "-t1", `-c${connections}`, "-d5s", `${scale.url}/books/list`];
      const child = new Deno.Command(pinned ? "taskset" : wrk[0], {
        args: pinned ? ["-c", "0", ...wrk] : wrk.slice(1),
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await victim.kill();
      const output = await child.output();
      const report = new TextDecoder().decode(output.stdout);
      assert.ok(output.success, new TextDecoder().decode(output.stderr));
      const total = Number(report.match(/(\d+) requests in/)?.[1]);
      const non2xx = Number(report.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
      const socket =
        report.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/)
          ?.slice(1).reduce((sum, count) => sum + Number(count), 0) ?? 0;
      assert.ok(total > 0, report);
      // Only a request being answered when the instance died may fail (one per
      // connection at most): every other one is retried on a live instance.
      assert.ok(non2xx + socket <= connections, report);
      assert.ok((non2xx + socket) / total < 0.01, report);
      await scale.balancer.until("DOWN", [victim.name]);
      await victim.restart();
      await scale.balancer.until("UP", [victim.name]);
    },
  },
];

Deno.test({
  name: "scale: three instances of the example behind HAProxy, sharing one Redis",
  ignore,
  async fn(t) {
    await withRedis(async (redis) => {
      const env = {
        REDIS_URL: redis.url,
        BOOKSTORE_TOKEN: DEV_TOKEN,
        RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
      };
      await withInstances({ count: 3, env }, async (instances) => {
        await withHaproxy(instances, async (balancer) => {
          const scale: Scale = {
            url: balancer.url,
            balancer,
            instances,
            redis,
            async call(method, path, body) {
              const response = await fetch(balancer.url + path, {
                method,
                headers: {
                  authorization: `Bearer ${DEV_TOKEN}`,
                  ...(body === undefined ? {} : { "content-type": "application/json" }),
                },
                ...(body === undefined ? {} : { body: JSON.stringify(body) }),
              });
              const text = await response.text();
              return {
                status: response.status,
                body: text === "" ? undefined : JSON.parse(text),
                backend: response.headers.get("x-backend"),
              };
            },
          };
          for (const scenario of SCENARIOS) {
            await t.step({
              name: scenario.name,
              ignore: scenario.ignore,
              fn: () => scenario.run(scale),
            });
          }
        });
      });
    });
  },
});
