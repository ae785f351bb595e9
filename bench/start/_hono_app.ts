// The app of _ramify_tree.ts on Hono: the same routes, the same zod schema, the
// same answers (a 422 with the issues for a body the schema refuses).
import { Hono } from "hono";
import { z } from "zod";

const Book = z.object({ title: z.string().min(1), pages: z.number().int().positive() });

/** The same routes on Hono, the body checked by the same zod schema. */
export function honoApp(leaves: number): Hono {
  const app = new Hono();
  for (let i = 0; i < leaves / 2; i++) {
    app.post(`/r${i}/add`, async (c) => {
      const parsed = Book.safeParse(await c.req.json());
      if (!parsed.success) return c.json({ issues: parsed.error.issues }, 422);
      return c.json({ id: "1", ...parsed.data });
    });
    app.get(`/r${i}/:id`, (c) => c.json({ id: c.req.param("id") }));
  }
  return app;
}
