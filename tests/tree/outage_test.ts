// tree/outage.ts: what says a store is out of reach (itself or as a cause),
// and the outage log: one line when an outage begins, one when it ends, a new
// outage once a quiet spell passed; logFault sends only outages there.
import assert from "node:assert/strict";
import {
  isUnreachable,
  logFault,
  outageLog,
  storeOutage,
  StoreUnreachable,
} from "../../tree/outage.ts";

class ClientOfflineError extends Error {
  constructor() {
    super("The client is offline");
  }
}

Deno.test("isUnreachable: a StoreUnreachable, or an error it caused; nothing else", () => {
  const down = new StoreUnreachable("Redis is unreachable", { cause: new ClientOfflineError() });
  assert.equal(isUnreachable(down), true);
  assert.equal(isUnreachable(new Error("could not start", { cause: down })), true);
  for (const other of [new ClientOfflineError(), new TypeError("a bug"), "down", undefined, null]) {
    assert.equal(isUnreachable(other), false, String(other));
  }
});

Deno.test("outageLog: one line per outage, naming the store's own error; one when it is back", () => {
  const lines: string[] = [];
  const outage = outageLog((line) => lines.push(line));
  outage.reachable();
  assert.deepEqual(lines, [], "no outage, nothing to say");
  const down = new StoreUnreachable("ramify: Redis is unreachable: The client is offline", {
    cause: new ClientOfflineError(),
  });
  for (let i = 0; i < 5; i++) outage.unreachable(down);
  outage.reachable();
  outage.reachable();
  outage.unreachable(new StoreUnreachable("ramify: Redis did not answer within 300 ms"));
  assert.deepEqual(lines, [
    "ramify: the store is unreachable (ClientOfflineError: The client is offline); requests are refused with 503 until it is back",
    "ramify: the store is reachable again",
    "ramify: the store is unreachable (StoreUnreachable: ramify: Redis did not answer within 300 ms); requests are refused with 503 until it is back",
  ]);
});

Deno.test("outageLog: a store that never says it is back starts a new outage after quietMs", async () => {
  const lines: string[] = [];
  const outage = outageLog((line) => lines.push(line), { quietMs: 20 });
  outage.unreachable(new StoreUnreachable("down"));
  outage.unreachable(new StoreUnreachable("down"));
  assert.equal(lines.length, 1);
  await new Promise((resolve) => setTimeout(resolve, 40));
  outage.unreachable(new StoreUnreachable("down"));
  assert.equal(lines.length, 2);
});

Deno.test("logFault: an outage goes to the one outage log; any other fault keeps its line", () => {
  const logged: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    const bug = new TypeError("a bug");
    logFault("ramify: GET /x crashed:", bug);
    logFault("ramify: GET /x crashed:", bug);
    for (let i = 0; i < 3; i++) logFault("ramify: GET /x crashed:", new StoreUnreachable("down"));
    storeOutage.reachable();
    assert.deepEqual(logged, [
      ["ramify: GET /x crashed:", bug],
      ["ramify: GET /x crashed:", bug],
      [
        "ramify: the store is unreachable (StoreUnreachable: down); requests are refused with 503 until it is back",
      ],
      ["ramify: the store is reachable again"],
    ]);
  } finally {
    console.error = original;
  }
});
