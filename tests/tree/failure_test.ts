// The one classification of failures every surface renders: five kinds, a
// status and a code each, a fault never showing its message.
import assert from "node:assert/strict";
import { z } from "zod";
import { HttpError, LeafError, op } from "@ramify/api/tree";
import {
  Cancelled,
  classify,
  createCall,
  failureLine,
  InputError,
  OutputError,
  TimedOut,
} from "@ramify/api/tree/catalogue";

const declaredLeafError = async () => {
  const leaf = op(() => {
    throw new LeafError("SOLD_OUT", { data: { left: 0 } });
  }, {
    errors: {
      SOLD_OUT: { status: 409, message: "Sold out", data: z.object({ left: z.number() }) },
    },
  });
  try {
    await createCall(leaf)({}, {});
  } catch (error) {
    return error;
  }
  throw new Error("did not fail");
};

Deno.test("classify: each kind gets its status, code and what the caller may see", async () => {
  const rows = [
    [new InputError([{ message: "Required", path: ["title"] }]), "input", 422, "BAD_USER_INPUT"],
    [new HttpError(404, "No book 9"), "declared", 404, "NOT_FOUND"],
    [new HttpError(418, "Short and stout"), "declared", 418, "BAD_REQUEST"],
    [new HttpError(409, "Taken", { code: "TAKEN" }), "declared", 409, "TAKEN"],
    [await declaredLeafError(), "declared", 409, "SOLD_OUT"],
    [new Cancelled(), "cancelled", 499, "CANCELLED"],
    [new TimedOut(50), "timeout", 503, "TIMEOUT"],
    [new Error("secret"), "fault", 500, "INTERNAL_SERVER_ERROR"],
    [
      new OutputError([{ message: "Expected string", path: ["id"] }]),
      "fault",
      500,
      "INTERNAL_SERVER_ERROR",
    ],
    [new LeafError("UNDECLARED"), "fault", 500, "INTERNAL_SERVER_ERROR"],
    [new DOMException("cut off", "AbortError"), "fault", 500, "INTERNAL_SERVER_ERROR"],
    ["a string", "fault", 500, "INTERNAL_SERVER_ERROR"],
    [undefined, "fault", 500, "INTERNAL_SERVER_ERROR"],
  ] as const;
  for (const [error, kind, status, code] of rows) {
    const failure = classify(error);
    assert.deepEqual(
      [failure.kind, failure.status, failure.code],
      [kind, status, code],
      String(error),
    );
    assert.equal(failure.error, error);
    if (kind === "fault" || kind === "cancelled") assert.equal(failure.detail, undefined);
  }
});

Deno.test("classify: a declared failure carries what the caller is to see", async () => {
  const leafError = classify(await declaredLeafError());
  assert.deepEqual(
    [leafError.title, leafError.detail, leafError.data, leafError.declaredCode],
    ["Conflict", "Sold out", { left: 0 }, true],
  );
  const http = classify(new HttpError(429, "Slow down", { headers: { "retry-after": "5" } }));
  assert.equal(http.headers?.get("retry-after"), "5");
  assert.equal(http.declaredCode, false);
  const input = classify(new InputError([{ message: "Too small", path: ["name"] }]));
  assert.deepEqual(input.issues, [{ message: "Too small", path: ["name"] }]);
  assert.equal(classify(new TimedOut(50)).detail, "The operation did not finish within 50 ms");
});

Deno.test("failureLine: one line for text surfaces, the fault's message never in it", async () => {
  assert.equal(failureLine(classify(new HttpError(404, "No book 9"))), "404 Not Found: No book 9");
  assert.equal(
    failureLine(classify(await declaredLeafError())),
    "409 Conflict [SOLD_OUT]: Sold out",
  );
  assert.equal(
    failureLine(classify(new InputError([{ message: "Too small", path: ["name"] }]))),
    "422 Unprocessable Content: name: Too small",
  );
  assert.equal(failureLine(classify(new Error("secret"))), "500 Internal Server Error");
  assert.equal(failureLine(classify(new Cancelled())), "499 Client Closed Request");
  assert.equal(
    failureLine(classify(new TimedOut(20))),
    "503 Service Unavailable: The operation did not finish within 20 ms",
  );
});
