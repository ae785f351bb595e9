// redisTasks against a real redis-server: the task runtime's suite with two
// runtimes on two connections (two instances); over HTTP, a task started on
// one instance read and cancelled through the other (the running instance's
// handler aborts); keys namespaced with a TTL; Redis unreachable (503, nothing
// runs) and restarted empty (the task is not found, its handler aborted).
import assert from "node:assert/strict";
import { api } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";
import { createTasks, type TaskRuntime } from "@ramify/api/tasks";
import { connectRedis, type Redis } from "../../redis/connection.ts";
import { redisTasks } from "../../redis/tasks.ts";
import { redisMissing, type RedisServer, withRedis } from "../support/redis.ts";
import { withServer } from "../support/server.ts";
import { type Seen, tasksTree, taskSuite, until } from "../tasks/_suite.ts";
import { byBearer } from "../support/bearer.ts";

const missing = await redisMissing();
const ignore = missing !== undefined;
if (ignore) console.warn(`skipped: ${missing}`);

taskSuite("redis tasks", async () => {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => stop = resolve);
  let ready!: (redis: Redis) => void;
  const connected = new Promise<Redis>((resolve) => ready = resolve);
  // The server lives until the test lets it go.
  const serving = withRedis(async (server) => {
    const redis = await connectRedis({ url: server.url, app: "test" });
    ready(redis);
    await stopped;
    await redis.close();
  });
  const redis = await connected;
  return {
    store: redisTasks(redis),
    close: async () => {
      stop();
      await serving;
    },
  };
}, missing);

const ANN = { authorization: "Bearer ann" };

/** Two instances, each on its own connection and runtime, served over the network. */
function withInstances(
  body: (
    bases: [string, string],
    seen: Seen,
    server: RedisServer,
    opened: Promise<void>,
  ) => Promise<void>,
): () => Promise<void> {
  return () =>
    withRedis(async (server) => {
      const seen: Seen = { aborted: undefined, faults: [] };
      let open!: () => void;
      const opened = new Promise<void>((resolve) => open = resolve);
      const tree = tasksTree(seen, { open: () => open() });
      const a = await connectRedis({ url: server.url, app: "test" });
      const b = await connectRedis({ url: server.url, app: "test" });
      const runtimes: TaskRuntime[] = [
        createTasks({ store: redisTasks(a, { timeoutMs: 300 }), heartbeatMs: 100 }),
        createTasks({ store: redisTasks(b, { timeoutMs: 300 }), heartbeatMs: 100 }),
      ];
      const serve = (tasks: TaskRuntime) =>
        createFetch(byBearer(api(tree.children)), { tasks, onError: () => {} });
      try {
        await withServer(serve(runtimes[0]), (first) =>
          withServer(serve(runtimes[1]), (second) =>
            body([first, second], seen, server, opened)));
      } finally {
        await Promise.all(runtimes.map((tasks) =>
          tasks.close()
        ));
        await Promise.all([a.close(), b.close()]);
      }
    });
}

const start = (base: string, path: string, input: unknown = {}) =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...ANN },
    body: JSON.stringify(input),
  });

Deno.test({
  name: "redisTasks over HTTP: started on one instance, read and cancelled through the other",
  ignore,
  fn: withInstances(async ([first, second], seen, server, opened) => {
    const counted = await start(first, "/count", { to: 2 });
    assert.equal(counted.status, 202);
    const location = counted.headers.get("location")!;
    await counted.body?.cancel();
    const result = await fetch(`${second}${location}/result`, {
      headers: { ...ANN, prefer: "wait=5" },
    });
    assert.equal(result.status, 200);
    assert.deepEqual(await result.json(), { counted: 2, at: "1970-01-01T00:00:00.000Z" });
    const id = location.split("/").pop()!;
    assert.equal(await server.cli("EXISTS", `ramify:test:task:${id}`), "1");
    const ttl = Number(await server.cli("PTTL", `ramify:test:task:${id}`));
    assert.ok(ttl > 0 && ttl <= 3_600_000, String(ttl));

    const forever = await start(first, "/forever");
    const running = forever.headers.get("location")!;
    await forever.body?.cancel();
    await opened;
    const other = await fetch(`${second}${running}`, { headers: { authorization: "Bearer bob" } });
    assert.equal(other.status, 404);
    await other.body?.cancel();
    const cancelled = await fetch(`${second}${running}`, { method: "DELETE", headers: ANN });
    assert.equal(cancelled.status, 200);
    assert.equal((await cancelled.json()).status, "cancelled");
    await until(() => seen.aborted !== undefined);
    const status = await (await fetch(`${first}${running}`, { headers: ANN })).json();
    assert.equal(status.status, "cancelled");
  }),
});

Deno.test({
  name:
    "redisTasks with Redis unreachable: 503 and nothing runs; restarted empty: not found, the handler aborted",
  ignore,
  fn: withInstances(async ([first, second], seen, server, opened) => {
    const forever = await start(first, "/forever");
    const running = forever.headers.get("location")!;
    await forever.body?.cancel();
    await opened;
    await server.stop();
    const down = await start(first, "/count", { to: 1 });
    assert.equal(down.status, 503);
    assert.equal(down.headers.get("retry-after"), "1");
    await down.body?.cancel();
    const unread = await fetch(`${second}${running}`, { headers: ANN });
    assert.equal(unread.status, 503);
    await unread.body?.cancel();
    await server.start();
    // Back, empty: the task is forgotten, and its runner stops at its next heartbeat.
    await until(async () => {
      const response = await fetch(`${second}${running}`, { headers: ANN });
      await response.body?.cancel();
      return response.status === 404;
    }, 10_000);
    await until(() => seen.aborted !== undefined, 10_000);
  }),
});
