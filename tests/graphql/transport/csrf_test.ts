// Forms no other site can forge, on GraphQL over HTTP as on REST (issue 29):
// a form-typed POST (multipart, urlencoded, text/plain) whose Origin or
// Sec-Fetch-Site shows another site is a 403 problem before anything is read;
// its own origin and a trusted one upload files, JSON is CORS's to govern.
// And serve()'s handler passes trustedOrigins to both surfaces.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, op } from "@ramify/api/tree";
import { createHttpGraphQLServer } from "@ramify/api/graphql";
import { createHandler } from "@ramify/api/serve";
import { withServer } from "../../support/server.ts";

const EVIL = "https://evil.example";
const APP = "https://app.example.com";
const UPLOAD = "mutation($file: File!) { upload(file: $file) }";

function counted() {
  const runs = { upload: 0 };
  const tree = api({
    upload: op(({ file }: { file: File }) => {
      runs.upload++;
      return file.name;
    }, { input: z.object({ file: z.file() }) }),
    ping: op(() => "pong", { tags: { readOnly: true } }),
  });
  return { runs, tree };
}

/** A file upload as the multipart request spec sends it (with its preflight header). */
function upload(headers: Record<string, string>): RequestInit {
  const form = new FormData();
  form.set("operations", JSON.stringify({ query: UPLOAD, variables: { file: null } }));
  form.set("map", JSON.stringify({ 0: ["variables.file"] }));
  form.set("0", new File(["x"], "a.txt"));
  return { method: "POST", headers: { "graphql-require-preflight": "1", ...headers }, body: form };
}

async function forbidden(response: Response): Promise<void> {
  assert.equal(response.status, 403);
  assert.equal(response.headers.get("content-type"), "application/problem+json");
  assert.match((await response.json()).detail, /another site/);
}

Deno.test("graphql csrf: a form from another site is 403 and nothing runs", async () => {
  const { runs, tree } = counted();
  await withServer(createHttpGraphQLServer(tree, { onError: () => {} }), async (base) => {
    const url = `${base}/graphql`;
    await forbidden(await fetch(url, upload({ origin: EVIL })));
    await forbidden(await fetch(url, upload({ "sec-fetch-site": "cross-site" })));
    await forbidden(await fetch(url, upload({ origin: "null" })));
    await forbidden(
      await fetch(url, {
        method: "POST",
        headers: { origin: EVIL, "content-type": "text/plain" },
        body: JSON.stringify({ query: "{ ping }" }),
      }),
    );
    assert.equal(runs.upload, 0);
  });
});

Deno.test("graphql csrf: its own origin and a trusted one upload; JSON from anywhere is served", async () => {
  const { runs, tree } = counted();
  const handler = createHttpGraphQLServer(tree, { trustedOrigins: [APP], onError: () => {} });
  await withServer(handler, async (base) => {
    const url = `${base}/graphql`;
    for (const origin of [base, APP]) {
      const response = await fetch(url, upload({ origin }));
      assert.equal(response.status, 200, origin);
      assert.deepEqual(await response.json(), { data: { upload: "a.txt" } });
    }
    const json = await fetch(url, {
      method: "POST",
      headers: { origin: EVIL, "sec-fetch-site": "cross-site", "content-type": "application/json" },
      body: JSON.stringify({ query: "{ ping }" }),
    });
    assert.deepEqual(await json.json(), { data: { ping: "pong" } });
    assert.equal(runs.upload, 2);
  });
});

Deno.test("graphql csrf: serve()'s handler trusts its trustedOrigins on REST and GraphQL", async () => {
  const { runs, tree } = counted();
  const handler = await createHandler(tree, { trustedOrigins: [APP], mcp: false, docs: false });
  const served = async (request: Request) =>
    await handler.fetch(request) ?? new Response(null, { status: 404 });
  await withServer(served, async (base) => {
    assert.equal((await fetch(`${base}/graphql`, upload({ origin: APP }))).status, 200);
    await forbidden(await fetch(`${base}/graphql`, upload({ origin: EVIL })));
    const form = new FormData();
    form.set("file", new File(["x"], "b.txt"));
    const rest = await fetch(`${base}/upload`, {
      method: "POST",
      headers: { origin: APP },
      body: form,
    });
    assert.equal(rest.status, 200);
    assert.equal(await rest.json(), "b.txt");
    await forbidden(
      await fetch(`${base}/upload`, { method: "POST", headers: { origin: EVIL }, body: form }),
    );
    assert.equal(runs.upload, 2);
  });
});
