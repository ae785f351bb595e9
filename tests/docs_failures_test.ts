// docs/failures.md's table of the five failure kinds, held to the code that
// answers them: each row's HTTP status, GraphQL code and `onError` column are
// what `failureOf` and the problem+json answer give an error of that kind,
// read from the page itself, so that a status changed on one side fails here.
import assert from "node:assert/strict";
import { HttpError } from "@ramify/api/tree";
import { Cancelled, failureOf, InputError, TimedOut } from "@ramify/api/tree/catalogue";
import { failureResponse } from "../web/problem.ts";

/** The rows of the page's first table: kind, what, HTTP status, GraphQL code, onError. */
async function rows(): Promise<string[][]> {
  const page = await Deno.readTextFile(new URL("../docs/failures.md", import.meta.url));
  const table = page.split("\n").filter((line) => line.startsWith("| `"));
  return table.map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()));
}

/** One error of each kind, as a leaf's call would throw it. */
const EXAMPLES: Record<string, { error: unknown; declared?: number }> = {
  input: { error: new InputError([{ message: "Required", path: ["title"] }]) },
  declared: { error: new HttpError(409, "Taken"), declared: 409 },
  cancelled: { error: new Cancelled() },
  timeout: { error: new TimedOut(100) },
  fault: { error: new Error("the disk is full") },
};

Deno.test("docs/failures.md: each kind's status, GraphQL code and onError are the code's", async () => {
  const table = await rows();
  assert.deepEqual(table.map((row) => row[0]), Object.keys(EXAMPLES).map((kind) => `\`${kind}\``));
  for (const [cell, , http, graphql, reported] of table) {
    const kind = cell.slice(1, -1);
    const { error, declared } = EXAMPLES[kind];
    const failure = failureOf(error);
    assert.equal(failure.kind, kind);
    // "its own" is the declared status; else the number the cell starts with.
    const status = http === "its own" ? declared : Number(/^\d{3}/.exec(http)?.[0]);
    assert.equal(failure.status, status, `${kind}: HTTP ${http}`);
    const response = failureResponse(failure);
    assert.equal(response.status, status, `${kind}: the answer's status`);
    const body = await response.json();
    if (kind === "fault") assert.doesNotMatch(JSON.stringify(body), /disk/, "nothing of the error");
    if (kind === "timeout") assert.match(body.detail, /did not finish within/);
    // A declared error's code is its own, else its status's: CONFLICT for this 409.
    const code = /`([A-Z_]+)`/.exec(graphql)?.[1] ?? "CONFLICT";
    assert.equal(failure.code, code, `${kind}: GraphQL ${graphql}`);
    assert.equal(reported === "yes", kind === "fault", `${kind}: onError ${reported}`);
  }
});
