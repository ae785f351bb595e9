// splitUrl: a request URL's raw path and query, absolute or relative (Bun gives
// a request without `Host`, as an HTTP/1.0 health check sends, a relative URL).
import assert from "node:assert/strict";
import { splitUrl } from "../../web/request.ts";

Deno.test("splitUrl: an absolute URL's path and query", () => {
  assert.deepEqual(splitUrl("http://localhost:8000/a/b?x=1#top"), { path: "/a/b", query: "x=1" });
  assert.deepEqual(splitUrl("https://example.com"), { path: "/", query: "" });
  assert.deepEqual(splitUrl("http://h/p#f?g"), { path: "/p", query: "" });
});

Deno.test("splitUrl: a relative URL is read by its own path and query", () => {
  assert.deepEqual(splitUrl("/health"), { path: "/health", query: "" });
  assert.deepEqual(splitUrl("/a/b?x=1"), { path: "/a/b", query: "x=1" });
  assert.deepEqual(splitUrl("/"), { path: "/", query: "" });
  assert.deepEqual(splitUrl("/p?q#f"), { path: "/p", query: "q" });
});
