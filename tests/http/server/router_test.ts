// The routers as fetch handlers: the default router never generates code, so it
// works where `eval` and `new Function` are forbidden (a strict CSP, some edge
// runtimes); the three routers answer one request set identically.
import assert from "node:assert/strict";
import { httpProjection } from "@ramify/api/http/dx";
import { compiledCharRouter, radixRouter, toRouter } from "@ramify/api/http";
import { bookstoreTree } from "../../support/bookstore.ts";

Deno.test("toRouter builds and answers with eval and new Function forbidden", async () => {
  const globals = globalThis as unknown as { eval: unknown; Function: unknown };
  const { eval: realEval, Function: realFunction } = globals;
  const forbidden = () => {
    throw new EvalError("code generation is forbidden here");
  };
  globals.eval = forbidden;
  globals.Function = new Proxy(realFunction as () => void, {
    construct: forbidden,
    apply: forbidden,
  });
  try {
    const handle = toRouter(httpProjection(bookstoreTree()));
    const response = await handle(new Request("http://localhost/books/42"));
    assert.deepEqual(await response.json(), { id: "42" });
    assert.throws(() => compiledCharRouter(httpProjection(bookstoreTree())), EvalError);
  } finally {
    globals.eval = realEval;
    globals.Function = realFunction;
  }
});

Deno.test("the three routers give identical answers", async () => {
  const route = httpProjection(bookstoreTree());
  const routers = [toRouter(route), radixRouter(route), compiledCharRouter(route)];
  const requests: [string, string][] = [
    ["GET", "/books/list"],
    ["GET", "/books/listing"],
    ["GET", "/books/list/"],
    ["GET", "/books//"],
    ["DELETE", "/books/7"],
    ["PATCH", "/books/7"],
    ["HEAD", "/catalog/featured"],
    ["OPTIONS", "/books/7/checkout/start"],
    ["POST", "/books/7/checkout/start"],
    ["GET", "/books/%E2%82%AC"],
    ["GET", "/books/%zz"],
    ["GET", "/"],
    ["GET", "/nothing/here"],
  ];
  for (const [method, path] of requests) {
    const answers = await Promise.all(routers.map(async (handle) => {
      const response = await handle(new Request(`http://localhost${path}`, { method }));
      return [response.status, response.headers.get("allow"), await response.text()];
    }));
    assert.deepEqual(answers[1], answers[0], `radix, ${method} ${path}`);
    assert.deepEqual(answers[2], answers[0], `compiled, ${method} ${path}`);
  }
});
