// One start in a fresh process: import + build + first GET + first POST of the
// app with `leaves` operations on `ramify` or `hono`, printed as JSON (ms).
//   deno run -A bench/start/_build_child.ts ramify|hono <leaves>
const [contender, leavesText] = Deno.args;
const leaves = Number(leavesText);

type Fetch = (request: Request) => Response | Promise<Response>;

async function app(): Promise<{ imported: number; fetch: Fetch }> {
  if (contender === "hono") {
    const { honoApp } = await import("./_hono_app.ts");
    const imported = performance.now();
    return { imported, fetch: honoApp(leaves).fetch };
  }
  const [{ ramifyTree }, { createFetch }] = await Promise.all([
    import("./_ramify_tree.ts"),
    import("@ramify/api/http"),
  ]);
  const imported = performance.now();
  return { imported, fetch: createFetch(ramifyTree(leaves)) };
}

const start = performance.now();
const { imported, fetch } = await app();
const built = performance.now();
const last = leaves / 2 - 1;
const get = await fetch(new Request(`http://localhost/r${last}/abc`));
await get.text();
const got = performance.now();
// With its Content-Length, as every client sends a JSON body over the wire (a
// `Request` made from a string has none, and reads as a chunked upload would).
const body = JSON.stringify({ title: "Dune", pages: 412 });
const post = await fetch(
  new Request(`http://localhost/r${last}/add`, {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": String(body.length) },
    body,
  }),
);
await post.text();
const posted = performance.now();
if (get.status !== 200 || post.status !== 200) {
  throw new Error(`${contender}: GET ${get.status}, POST ${post.status}`);
}
console.log(JSON.stringify({
  import: imported - start,
  build: built - imported,
  get: got - built,
  post: posted - got,
  total: posted - start,
}));
