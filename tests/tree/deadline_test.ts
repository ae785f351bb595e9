// The shared deadline ticker: an entry fires once and not before its time; a
// forgotten one never fires, wherever it sits in the list.
import assert from "node:assert/strict";
import { arm, Deadline, disarm, watchDeadline } from "../../tree/deadline.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("watchDeadline: fires once, on time; forgotten entries never fire", async () => {
  const fired: number[] = [];
  const started = Date.now();
  const at: number[] = [];
  const forgets = Array.from({ length: 9 }, (_, i) =>
    watchDeadline(60, () => {
      fired.push(i);
      at.push(Date.now() - started);
    }));
  // First, last and middle ones forgotten: the list unlinks at either end and inside.
  for (const i of [0, 8, 4, 5]) forgets[i]();
  forgets[4](); // forgetting twice is harmless
  await sleep(400);
  assert.deepEqual(fired.sort(), [1, 2, 3, 6, 7]);
  for (const ms of at) assert.ok(ms >= 60, `fired after ${ms} ms`);
  // Forgetting after firing is harmless too; nothing fires again.
  for (const forget of forgets) forget();
  await sleep(120);
  assert.equal(fired.length, 5);
});

Deno.test("watchDeadline: an entry added by an expiring one still fires", async () => {
  const fired: string[] = [];
  watchDeadline(20, () => {
    fired.push("first");
    watchDeadline(20, () => fired.push("second"));
  });
  await sleep(400);
  assert.deepEqual(fired, ["first", "second"]);
});

Deno.test("arm: an entry of one's own expires once; a disarmed one never, and may be armed again", async () => {
  class Entry extends Deadline {
    fired = 0;
    expire() {
      this.fired++;
    }
  }
  const kept = new Entry();
  const dropped = new Entry();
  const again = new Entry();
  arm(kept, 20);
  arm(dropped, 20);
  arm(again, 20);
  disarm(dropped);
  disarm(again);
  disarm(again); // twice is harmless
  arm(again, 20);
  await sleep(300);
  assert.deepEqual([kept.fired, dropped.fired, again.fired], [1, 0, 1]);
});

Deno.test("arm: the ticker takes neither setTimeout nor setInterval (Deno loads its Node timers on the first call)", async () => {
  class Entry extends Deadline {
    fired = 0;
    expire() {
      this.fired++;
    }
  }
  // The earlier tests' entries are long gone, so arming starts the ticker again.
  const { setTimeout: timeout, setInterval: interval } = globalThis;
  const refuse = () => {
    throw new Error("the ticker called a global timer");
  };
  const entry = new Entry();
  Object.assign(globalThis, { setTimeout: refuse, setInterval: refuse });
  try {
    arm(entry, 20);
  } finally {
    Object.assign(globalThis, { setTimeout: timeout, setInterval: interval });
  }
  await sleep(300);
  assert.equal(entry.fired, 1);
});
