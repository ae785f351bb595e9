// A Content-Length read strictly, and a body read against its deadline
// (`within`): one answer, from whichever comes first; once late, the read's
// own outcome is never looked at, so no handler can run after the 408.
import assert from "node:assert/strict";
import { declaredLength, within } from "../../../web/body.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("within: a read that ends in time gives what done returns; failed turns a failure", async () => {
  assert.equal(
    await within(Promise.resolve(2), 1_000, (n) => n * 10, () => -1, () => 0),
    20,
  );
  assert.equal(
    await within(Promise.reject(new Error("x")), 1_000, () => 1, () => -1, () => 0),
    -1,
  );
  // What done throws rejects.
  await assert.rejects(
    within(
      Promise.resolve(1),
      1_000,
      () => {
        throw new RangeError("bad");
      },
      () => 0,
      () => 0,
    ),
    RangeError,
  );
});

Deno.test("within: a late read gives late's answer, and done is never called after", async () => {
  let finish!: (value: number) => void;
  const reading = new Promise<number>((resolve) => finish = resolve);
  const calls: string[] = [];
  // The ticker never keeps a process alive: a timer of the test's own does.
  const [answer] = await Promise.all([
    within(reading, 20, (n) => {
      calls.push("done");
      return n;
    }, () => {
      calls.push("failed");
      return -1;
    }, () => 408),
    sleep(300),
  ]);
  assert.equal(answer, 408);
  finish(1);
  await sleep(20);
  assert.deepEqual(calls, []);
});

Deno.test("within: without a finite deadline it is the read itself", async () => {
  assert.equal(await within(Promise.resolve(3), Infinity, (n) => n + 1, () => 0, () => 0), 4);
});

Deno.test("declaredLength: digits only, or no length at all", () => {
  assert.equal(declaredLength("42"), 42);
  assert.equal(declaredLength("007"), 7);
  assert.equal(declaredLength("0"), 0);
  for (const spoiled of [null, "", "+4", "-1", "4 ", " 4", "1e3", "0x10", "4.0", "\u0663", "NaN"]) {
    assert.equal(declaredLength(spoiled), undefined, `${spoiled}`);
  }
});
