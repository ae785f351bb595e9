// File inputs: the OpenAPI document says multipart/form-data, and the typed
// client sends multipart when the input holds a File or Blob, which the server
// reads back into the same flat input.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createClient, createFetch, toOpenApi } from "@ramify/api/http";
import { withServer } from "../support/server.ts";

const tree = api({
  docs: api({
    upload: op(async ({ title, file, pages, extra }) => ({
      title,
      name: file.name,
      text: await file.text(),
      pages,
      extras: extra.length,
    }), {
      input: z.object({
        title: z.string(),
        file: z.file(),
        pages: z.number().int(),
        extra: z.array(z.file()),
      }),
      output: z.object({
        title: z.string(),
        name: z.string(),
        text: z.string(),
        pages: z.number(),
        extras: z.number(),
      }),
    }),
    note: op(({ text }) => ({ text }), { input: z.object({ text: z.string() }) }),
  }),
});

Deno.test("files: the document says multipart/form-data for an input with files, JSON otherwise", async () => {
  const doc = await toOpenApi(tree);
  const media = (path: string) =>
    Object.keys(doc.paths[path].post.requestBody?.content as Record<string, unknown>);
  assert.deepEqual(media("/docs/upload"), ["multipart/form-data"]);
  assert.deepEqual(media("/docs/note"), ["application/json"]);
});

Deno.test("files: the client sends multipart when the input holds files", async () => {
  await withServer(createFetch(tree), async (base) => {
    const client = createClient(tree, { baseUrl: base });
    const result = await client.docs.upload({
      title: "Report",
      file: new File(["hello"], "a.txt", { type: "text/plain" }),
      pages: 3,
      extra: [new File(["x"], "x.txt"), new File(["y"], "y.txt")],
    });
    assert.deepEqual(result, {
      title: "Report",
      name: "a.txt",
      text: "hello",
      pages: 3,
      extras: 2,
    });
    assert.deepEqual(await client.docs.note({ text: "plain JSON" }), { text: "plain JSON" });
  });
});
