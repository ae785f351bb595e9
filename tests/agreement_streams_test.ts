// Stream positions agree on every surface: a leaf returning a subscription on
// a bus that keeps events gives each event the same id over SSE (its `id:`
// line), the typed HTTP client (`onEventId`), GraphQL over WebSocket
// (`extensions.eventId`), MCP (a progress notification's `_meta.eventId`)
// and the command line; resuming from an id with `lastEventId` (over SSE the
// `Last-Event-ID` header) gives the same events everywhere, and an id the
// topic never gave is a gap each surface tells in its own way, the stream
// going on after it.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op, StreamEvent } from "@ramify/api/tree";
import { eventsOf } from "@ramify/api/tree/catalogue";
import { createClient } from "@ramify/api/http";
import { runCli } from "@ramify/api/cli";
import { createPubSub, memoryStreams } from "@ramify/api/pubsub";
import { serveEverySurface } from "./support/every_surface.ts";
import { memoryIo } from "./support/cli_io.ts";

function feedTree() {
  const pubsub = createPubSub<{ tick: { n: number } }>({ bus: memoryStreams() });
  const tree = api({
    feed: op(
      ({ lastEventId, limit }, ctx) =>
        pubsub.subscribe("tick", { signal: ctx.signal, lastEventId, limit }),
      {
        tags: { readOnly: true, streaming: true },
        input: z.object({ lastEventId: z.string().optional(), limit: z.number().int().min(1) }),
        output: z.object({ n: z.number() }),
      },
    ),
  });
  return { pubsub, tree };
}

/** The published events' ids, as a subscriber sees them. */
async function publishFive(pubsub: ReturnType<typeof feedTree>["pubsub"]) {
  const ids: string[] = [];
  const subscription = pubsub.subscribe("tick", { limit: 5 });
  for (let n = 1; n <= 5; n++) await pubsub.publish("tick", { n });
  const iterator = subscription[eventsOf]();
  for (let i = 0; i < 5; i++) {
    const step = await iterator.next();
    assert.ok(step.value instanceof StreamEvent);
    ids.push(step.value.id);
  }
  return ids;
}

interface Seen {
  values: number[];
  ids: string[];
  gaps: number;
}

Deno.test("agreement: stream positions and resumption are the same on every surface", async () => {
  const { pubsub, tree } = feedTree();
  const surfaces = await serveEverySurface(tree);
  try {
    const ids = await publishFive(pubsub);
    const from = ids[1];
    const seen: Record<string, Seen> = {};

    // SSE, resumed with the header as EventSource does.
    {
      const response = await fetch(`${surfaces.base}/feed?limit=3`, {
        headers: { "last-event-id": from },
      });
      const text = await response.text();
      const events = text.split("\n\n").filter((block) => block.includes("data: "));
      seen.sse = {
        values: events.map((block) => JSON.parse(block.split("data: ")[1]).n),
        ids: events.map((block) => block.match(/^id: (.*)$/m)![1]),
        gaps: events.filter((block) => block.includes("event: gap")).length,
      };
    }

    // The typed HTTP client.
    {
      const client = createClient(tree, { baseUrl: surfaces.base });
      const got: Seen = { values: [], ids: [], gaps: 0 };
      const stream = await client.feed({ lastEventId: from, limit: 3 }, {
        onEventId: (id) => void got.ids.push(id),
        onGap: () => void got.gaps++,
      });
      for await (const item of stream) got.values.push(item.n);
      seen.client = got;
    }

    // GraphQL over WebSocket.
    {
      const got: Seen = { values: [], ids: [], gaps: 0 };
      const results = surfaces.socket.iterate<{ feed: { n: number } }, { eventId?: string }>({
        query:
          `subscription($from: String, $limit: Int!) { feed(lastEventId: $from, limit: $limit) { n } }`,
        variables: { from, limit: 3 },
      });
      for await (const result of results) {
        got.values.push(result.data!.feed.n);
        got.ids.push(result.extensions!.eventId!);
      }
      seen.graphql = got;
    }

    // MCP, with progress notifications.
    {
      const got: Seen = { values: [], ids: [], gaps: 0 };
      await surfaces.mcpClient.callTool(
        { name: "feed", arguments: { lastEventId: from, limit: 3 } },
        {
          onprogress: (progress) => {
            got.values.push(JSON.parse(progress.message!).n);
            got.ids.push((progress as { _meta?: { eventId?: string } })._meta!.eventId!);
          },
        },
      );
      seen.mcp = got;
    }

    const expected = { values: [3, 4, 5], ids: ids.slice(2), gaps: 0 };
    for (const [surface, got] of Object.entries(seen)) {
      assert.deepEqual(got, expected, surface);
    }

    // The command line prints the values as JSON lines.
    const io = memoryIo();
    assert.equal(await runCli(tree, ["feed", "--last-event-id", from, "--limit", "3"], { io }), 0);
    assert.deepEqual(io.stdout.join("").trim().split("\n").map((line) => JSON.parse(line).n), [
      3,
      4,
      5,
    ]);
  } finally {
    await surfaces.close();
    await pubsub.close();
  }
});

Deno.test("agreement: an id the topic never gave is a gap on every surface, then the stream goes on", async () => {
  const { pubsub, tree } = feedTree();
  const surfaces = await serveEverySurface(tree);
  const unknown = "999999999999999-0";
  // Once the surface's subscription is there, an event follows the gap.
  const publishSoon = () =>
    void (async () => {
      while (pubsub.subscribers("tick") === 0) await new Promise((ok) => setTimeout(ok, 10));
      await pubsub.publish("tick", { n: 7 });
    })();
  try {
    // SSE: an `event: gap` with its notice, then the live event.
    publishSoon();
    const text = await (await fetch(`${surfaces.base}/feed?limit=1`, {
      headers: { "last-event-id": unknown },
    })).text();
    assert.match(text, /event: gap\ndata: \{"code":"EVENTS_MISSED"/);
    assert.match(text, /data: \{"n":7\}/);

    // A hostile id (10 KB) is a gap too, repeated only in part.
    publishSoon();
    const hostile = await (await fetch(`${surfaces.base}/feed?limit=1`, {
      headers: { "last-event-id": "9".repeat(10_000) },
    })).text();
    const notice = JSON.parse(hostile.split("event: gap\ndata: ")[1].split("\n")[0]);
    assert.equal(notice.code, "EVENTS_MISSED");
    assert.ok(notice.lastEventId.length <= 65, "the id is not echoed whole");
    assert.match(hostile, /data: \{"n":7\}/);

    // The typed client: onGap, then the value.
    publishSoon();
    const notices: unknown[] = [];
    const client = createClient(tree, { baseUrl: surfaces.base });
    const values = [];
    for await (
      const item of await client.feed({ lastEventId: unknown, limit: 1 }, {
        onGap: (notice) => void notices.push(notice),
      })
    ) values.push(item.n);
    assert.deepEqual(values, [7]);
    assert.deepEqual(notices.map((notice) => (notice as { code: string }).code), ["EVENTS_MISSED"]);

    // GraphQL: an error with code EVENTS_MISSED in the stream, then data.
    publishSoon();
    const results = [];
    for await (
      const result of surfaces.socket.iterate({
        query: `subscription { feed(lastEventId: "${unknown}", limit: 1) { n } }`,
      })
    ) results.push(result);
    assert.equal(results[0].errors?.[0].extensions?.code, "EVENTS_MISSED");
    assert.deepEqual(results[1].data, { feed: { n: 7 } });

    // MCP: the gap's notice as a progress message, then the item.
    publishSoon();
    const messages: string[] = [];
    await surfaces.mcpClient.callTool(
      { name: "feed", arguments: { lastEventId: unknown, limit: 1 } },
      { onprogress: (progress) => void messages.push(progress.message!) },
    );
    assert.equal(JSON.parse(messages[0]).code, "EVENTS_MISSED");
    assert.deepEqual(JSON.parse(messages[1]), { n: 7 });

    // The command line: a warning on standard error, the value on standard output.
    publishSoon();
    const io = memoryIo();
    assert.equal(
      await runCli(tree, ["feed", "--last-event-id", unknown, "--limit", "1"], { io }),
      0,
    );
    assert.match(io.stderr.join(""), /^warning: Events after 999999999999999-0 are no longer kept/);
    assert.deepEqual(JSON.parse(io.stdout.join("")), { n: 7 });
  } finally {
    await surfaces.close();
    await pubsub.close();
  }
});
