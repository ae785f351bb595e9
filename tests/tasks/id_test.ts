// A task's id: 24 characters of base64url, unguessable, and never one that a
// command line reads as a flag (`cancel -x…`): none begins with `-`.
import assert from "node:assert/strict";
import { taskId } from "../../tasks/_id.ts";

Deno.test("task ids: base64url, 24 characters, distinct, none beginning with -", () => {
  const ids = Array.from({ length: 10_000 }, taskId);
  for (const id of ids) assert.match(id, /^[A-Za-z0-9_][A-Za-z0-9_-]{23}$/);
  assert.equal(new Set(ids).size, ids.length);
});
