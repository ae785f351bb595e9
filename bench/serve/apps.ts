// The contenders of the serving benchmarks (the floor, a bare handler, Hono,
// oRPC and ramify), each with the same three routes: GET /hello (JSON), GET /books/{id}
// (a path parameter), POST /books (a JSON body validated by the same zod
// schema). Shared by the in-process bench and the wrk driver, so both measure
// the same handlers.
import { z } from "zod";
import { Hono } from "hono";
import { os } from "@orpc/server";
import { OpenAPIHandler } from "@orpc/openapi/fetch";
import { api, createFetch, http, op } from "@ramify/api";

export const Book = z.object({ title: z.string().min(1), author: z.string().min(1) });

/**
 * The least work that answers the three routes: no URL object, no route
 * table, no header read, the answer given at once. Not a server anyone would
 * write (it checks neither paths nor types): the bound no router on this
 * runtime can pass, which shows what a goal asks of the others.
 */
export function floor(request: Request): Response | Promise<Response> {
  const url = request.url;
  if (request.method === "GET") {
    return url.endsWith("/hello")
      ? Response.json({ hello: "world" })
      : Response.json({ id: url.slice(url.lastIndexOf("/") + 1), title: "Dune" });
  }
  return request.json().then((body) => {
    const parsed = Book.safeParse(body);
    if (!parsed.success) return Response.json({ issues: parsed.error.issues }, { status: 422 });
    return Response.json({ id: "1", ...parsed.data });
  });
}

/**
 * The floor answering through a promise, as an asynchronous handler (like
 * `createFetch`'s) must: Deno.serve sends a response given at once without
 * waiting on anything, so this is the bound for those handlers.
 */
export function floorAsync(request: Request): Promise<Response> {
  const answer = floor(request);
  return answer instanceof Promise ? answer : Promise.resolve(answer);
}

/** A hand-written Deno.serve handler, as one would write it without a framework. */
export function bare(request: Request): Response | Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname;
  if (path === "/hello" && request.method === "GET") return Response.json({ hello: "world" });
  if (path.startsWith("/books/") && request.method === "GET") {
    return Response.json({ id: decodeURIComponent(path.slice(7)), title: "Dune" });
  }
  if (path === "/books" && request.method === "POST") {
    return request.json().then((body) => {
      const parsed = Book.safeParse(body);
      if (!parsed.success) return Response.json({ issues: parsed.error.issues }, { status: 422 });
      return Response.json({ id: "1", ...parsed.data });
    });
  }
  return new Response("Not Found", { status: 404 });
}

/** The same routes in Hono. */
export function hono(): (request: Request) => Response | Promise<Response> {
  const app = new Hono();
  app.get("/hello", (c) => c.json({ hello: "world" }));
  app.get("/books/:id", (c) => c.json({ id: c.req.param("id"), title: "Dune" }));
  app.post("/books", async (c) => {
    const parsed = Book.safeParse(await c.req.json());
    if (!parsed.success) return c.json({ issues: parsed.error.issues }, 422);
    return c.json({ id: "1", ...parsed.data });
  });
  return app.fetch;
}

/** The same routes in oRPC, served over plain HTTP by its OpenAPI handler. */
export function orpc(): (request: Request) => Promise<Response> {
  const router = {
    hello: os.route({ method: "GET", path: "/hello" }).handler(() => ({ hello: "world" })),
    read: os.route({ method: "GET", path: "/books/{id}" })
      .input(z.object({ id: z.string() }))
      .handler(({ input }) => ({ id: input.id, title: "Dune" })),
    add: os.route({ method: "POST", path: "/books" })
      .input(Book)
      .handler(({ input }) => ({ id: "1", ...input })),
  };
  const handler = new OpenAPIHandler(router);
  return async (request) => {
    const { matched, response } = await handler.handle(request, { context: {} });
    return matched ? response : new Response("Not Found", { status: 404 });
  };
}

/** The same routes as a ramify tree, served as `createFetch` serves by default (its OpenAPI document too). */
export function ramify(): (request: Request) => Promise<Response> {
  return createFetch(
    api({
      hello: op(() => ({ hello: "world" }), http.get),
      books: api({
        add: op((book) => ({ id: "1", ...book }), http.moveTo(".."), { input: Book }),
      }, {
        fallback: {
          name: "bookId",
          subtree: api({ read: op(({ bookId }) => ({ id: bookId, title: "Dune" }), http.get) }),
        },
      }),
    }),
  );
}

/** A contender's handler, as Deno.serve and Bun.serve both take it. */
export type Handler = (request: Request) => Response | Promise<Response>;

/** The contender of that name, built alone (each server runs one), or undefined. */
export function contender(name: string): Handler | undefined {
  switch (name) {
    case "floor":
      return floor;
    case "floorAsync":
      return floorAsync;
    case "bare":
      return bare;
    case "hono":
      return hono();
    case "orpc":
      return orpc();
    case "ramify":
      return ramify();
  }
}

/** The body of every POST, in process and on the wire. */
export const POST_BODY = '{"title":"Dune","author":"Frank Herbert"}';

/** The three requests, made fresh each time (a body is read once). */
export const requests = {
  hello: () => new Request("http://localhost/hello"),
  book: () => new Request("http://localhost/books/42"),
  // With its length declared, as a client over the network sends it.
  add: () =>
    new Request("http://localhost/books", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(POST_BODY.length) },
      body: POST_BODY,
    }),
};
