/**
 * The REST edge worker of tests/support/size_entries/rest.ts on Hono: the same
 * routes, the same zod schema, a 422 for a body it refuses, and an OpenAPI
 * document at `/openapi.json` (written by hand: Hono derives none).
 *
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";

const Item = z.object({ name: z.string().min(1) });

const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Edge", version: "1.0.0" },
  paths: {
    "/items/add": {
      post: {
        operationId: "itemsAdd",
        requestBody: {
          required: true,
          content: { "application/json": { schema: z.toJSONSchema(Item) } },
        },
        responses: { "200": { description: "The result" } },
      },
    },
    "/items/{id}": {
      get: {
        operationId: "itemsRead",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "The result" } },
      },
    },
  },
};

const app = new Hono();
app.post("/items/add", async (c) => {
  const parsed = Item.safeParse(await c.req.json());
  if (!parsed.success) return c.json({ status: 422, issues: parsed.error.issues }, 422);
  return c.json({ name: parsed.data.name, added: true });
});
app.get("/items/:id", (c) => c.json({ id: c.req.param("id") }));
app.get("/openapi.json", (c) => c.json(DOCUMENT));

/** The worker. */
export default app;
