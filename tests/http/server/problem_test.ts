// HttpError: a header value with a line break (response splitting) is refused
// when the error is made, naming the header, not later as a masked 500.
import assert from "node:assert/strict";
import { HttpError } from "@ramify/api/tree";

Deno.test("HttpError: a CR or LF in a header value is refused at construction, by name", () => {
  for (const value of ["Basic\r\nSet-Cookie: a=b", "Basic\nx", "Basic\rx", "a\0b"]) {
    assert.throws(
      () => new HttpError(401, "Sign in", { headers: { "www-authenticate": value } }),
      (error: Error) =>
        error instanceof TypeError &&
        error.message ===
          `HttpError: the "www-authenticate" header's value holds a line break or NUL; a header value is one line`,
    );
  }
  assert.throws(
    () => new HttpError(429, "Slow down", { headers: [["retry after", "5"]] }),
    /HttpError: "retry after" is not a valid header name/,
  );
  const ok = new HttpError(401, "Sign in", {
    headers: new Headers({ "www-authenticate": 'Bearer realm="api"' }),
  });
  assert.equal(ok.headers.get("www-authenticate"), 'Bearer realm="api"');
});
