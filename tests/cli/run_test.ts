// The command-line projection: the grammar (words, captures, flags of every
// kind, --input and free flags for a leaf without an input schema, none for an empty one), help at every level, "did
// you mean", confirmation, output, failures and exit codes (timeouts,
// cancellation, faults to onError), the context option, and remote mode
// against a live server.
import assert from "node:assert/strict";
import { z } from "zod";
import { api, LeafError, op } from "@ramify/api/tree";
import { createFetch } from "@ramify/api/http";
import { HttpError } from "@ramify/api/tree";
import { runCli } from "@ramify/api/cli";
import { withServer } from "../support/server.ts";
import { memoryIo } from "../support/cli_io.ts";

const seen: unknown[] = [];
const tree = api({
  books: api({
    list: op(() => [{ id: "1", title: "Dune" }], {
      tags: { readOnly: true },
      description: "Lists every book",
    }),
    add: op((input) => {
      seen.push(input);
      return { id: "2", ...input };
    }, {
      input: z.object({
        title: z.string().min(1).describe("The title"),
        pages: z.number().int().positive().optional(),
        price: z.number().optional(),
        hardcover: z.boolean().default(false),
        genre: z.enum(["novel", "poetry"]).optional(),
        tags: z.array(z.string()).optional(),
        ratings: z.array(z.number()).optional(),
        publisher: z.object({ name: z.string(), city: z.string().optional() }).optional(),
        firstPublished: z.string().optional(),
      }),
      description: "Adds a book",
    }),
  }, {
    fallback: {
      name: "bookId",
      subtree: api({
        read: op(({ bookId }) => {
          if (bookId !== "1") throw new HttpError(404, `No book ${bookId}`);
          return { id: "1", title: "Dune" };
        }, { tags: { readOnly: true }, input: z.object({ bookId: z.string() }) }),
        remove: op(({ bookId }) => {
          seen.push(`removed ${bookId}`);
        }, { tags: { destructive: true } }),
      }),
    },
  }),
  ticks: op(async function* ({ to }) {
    for (let i = 1; i <= to; i++) yield { tick: i };
  }, { tags: { streaming: true }, input: z.object({ to: z.number().int() }) }),
  echo: op((input) => input),
  nothing: op(() => "done", { input: z.object({}) }),
  note: op((input) => input, { input: z.record(z.string(), z.unknown()) }),
  boom: op((): string => {
    throw new Error("the disk is full");
  }),
  reserve: op((): string => {
    throw new LeafError("SOLD_OUT");
  }, { errors: { SOLD_OUT: { status: 409, message: "Sold out" } } }),
  seats: op(async function* () {
    yield 1;
    throw new LeafError("SOLD_OUT");
  }, { tags: { streaming: true }, errors: { SOLD_OUT: { status: 409, message: "Sold out" } } }),
  wait: op((_input, { signal }) =>
    new Promise<never>((_resolve, reject) => {
      signal?.addEventListener("abort", () => {
        seen.push((signal.reason as Error).name);
        reject(signal.reason);
      }, { once: true });
    })
  ),
  whoami: op((_input, ctx) => ({ tenant: ctx.tenant })),
});

async function run(argv: string[], io = memoryIo()) {
  seen.length = 0;
  const code = await runCli(tree, argv, { name: "shop", io });
  return { code, out: io.stdout.join(""), err: io.stderr.join(""), io };
}

Deno.test("cli: words select leaves; a fallback takes the next word", async () => {
  const list = await run(["books", "list"]);
  assert.deepEqual([list.code, list.out, list.err], [0, '[{"id":"1","title":"Dune"}]\n', ""]);
  const read = await run(["books", "1", "read"]);
  assert.equal(read.out, '{"id":"1","title":"Dune"}\n');
});

Deno.test("cli: flags of every kind go through the leaf's schema", async () => {
  const { code, out } = await run([
    "books",
    "add",
    "--title",
    "Dune",
    "--pages=412",
    "--price",
    "9.5",
    "--hardcover",
    "--genre",
    "novel",
    "--tags",
    "sf",
    "--tags",
    "classic",
    "--ratings",
    "5",
    "--ratings",
    "4.5",
    "--publisher.name",
    "Chilton",
    "--first-published",
    "1965",
  ]);
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(out), {
    id: "2",
    title: "Dune",
    pages: 412,
    price: 9.5,
    hardcover: true,
    genre: "novel",
    tags: ["sf", "classic"],
    ratings: [5, 4.5],
    publisher: { name: "Chilton" },
    firstPublished: "1965",
  });
  const negated = await run(["books", "add", "--title", "X", "--no-hardcover"]);
  assert.equal(JSON.parse(negated.out).hardcover, false);
  const json = await run([
    "books",
    "add",
    "--title",
    "X",
    "--publisher",
    '{"name":"Ace","city":"NY"}',
  ]);
  assert.deepEqual(JSON.parse(json.out).publisher, { name: "Ace", city: "NY" });
  const spelled = await run(["books", "add", "--title", "X", "--firstPublished", "1966"]);
  assert.equal(
    JSON.parse(spelled.out).firstPublished,
    "1966",
    "the property's own spelling works too",
  );
});

Deno.test("cli: --input gives the whole input as JSON, from a file or from stdin; flags win", async () => {
  const inline = await run(["books", "add", "--input", '{"title":"A","pages":3}', "--pages", "4"]);
  assert.deepEqual(JSON.parse(inline.out), { id: "2", title: "A", pages: 4, hardcover: false });
  const fromFile = await run(
    ["books", "add", "--input", "@book.json"],
    memoryIo({ files: { "book.json": '{"title":"F"}' } }),
  );
  assert.equal(JSON.parse(fromFile.out).title, "F");
  const fromStdin = await run(
    ["books", "add", "--input", "-"],
    memoryIo({ stdin: '{"title":"S"}' }),
  );
  assert.equal(JSON.parse(fromStdin.out).title, "S");
  const notObject = await run(["books", "add", "--input", "[1]"]);
  assert.deepEqual([notObject.code, notObject.err], [2, "error: --input expects a JSON object\n"]);
  const missing = await run(["books", "add", "--input", "@nope.json"]);
  assert.deepEqual([missing.code, missing.err], [2, "error: --input: cannot read nope.json\n"]);
});

Deno.test("cli: a leaf without an input schema takes --input and free flags, merged with its captures", async () => {
  const bare = await run(["echo"]);
  assert.deepEqual([bare.code, bare.out], [0, "{}\n"]);
  // Free flags are strings, as a query's values; a bare one is true; repeated, a list.
  const flagged = await run(["echo", "--a", "1", "--b=two", "--c", "--d", "x", "--d", "y"]);
  assert.deepEqual([flagged.code, JSON.parse(flagged.out)], [
    0,
    { a: "1", b: "two", c: true, d: ["x", "y"] },
  ]);
  // --input is JSON, as a body is; free flags win over it, as named flags do.
  const json = await run(["echo", "--input", '{"a":1,"n":{"x":[2]}}', "--a", "flag"]);
  assert.deepEqual(JSON.parse(json.out), { a: "flag", n: { x: [2] } });
  // Own keys only: __proto__ is a key like any other.
  const proto = await run(["echo", "--input", '{"__proto__":{"polluted":1}}', "--__proto__", "x"]);
  assert.equal(proto.code, 0);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  // The capture wins over a flag of its name.
  seen.length = 0;
  const captured = await run(["books", "7", "remove", "--yes", "--bookId", "9", "--force"]);
  assert.deepEqual([captured.code, seen], [0, ["removed 7"]]);
  // The command line's own flags stay its own.
  const compact = await run(["echo", "--json", "--a", "1"]);
  assert.equal(compact.out, '{"a":"1"}\n');
  const stray = await run(["echo", "extra"]);
  assert.deepEqual([stray.code, stray.err], [2, 'error: unexpected argument "extra"\n']);
  const notObject = await run(["echo", "--input", "[1]"]);
  assert.deepEqual([notObject.code, notObject.err], [2, "error: --input expects a JSON object\n"]);
  // A leaf that takes nothing says so with an empty schema: then no flag is free.
  const none = await run(["nothing", "--a", "1"]);
  assert.deepEqual([none.code, none.err], [
    2,
    'error: unknown flag --a; "nothing" takes no input\n',
  ]);
  const typo = await run(["nothing", "--jsn"]);
  assert.equal(typo.err, "error: unknown flag --jsn; did you mean --json?\n");
  // Free-form input may be declared with a schema too, and given with --input.
  const free = await run(["note", "--input", '{"a":1,"b":[2]}']);
  assert.deepEqual(JSON.parse(free.out), { a: 1, b: [2] });
});

Deno.test("cli: usage errors exit 2 and say what was meant", async () => {
  const cases: [string[], string][] = [
    [["bokos"], 'error: unknown command "bokos"; did you mean books?\n'],
    [["books", "add", "--titel", "X"], "error: unknown flag --titel; did you mean --title?\n"],
    [["books", "add", "--pages", "many"], 'error: --pages expects a number, got "many"\n'],
    [["books", "add", "--pages", "1.5"], 'error: --pages expects an integer, got "1.5"\n'],
    [["books", "add", "--title"], "error: --title <value>: argument missing\n"],
    [["books", "list", "extra"], 'error: unexpected argument "extra"\n'],
    [["completion", "tcsh"], "error: completion: give one of bash, zsh, fish\n"],
  ];
  for (const [argv, err] of cases) {
    const result = await run(argv);
    assert.deepEqual([result.code, result.err, result.out], [2, err, ""], argv.join(" "));
  }
  const bare = await run([]);
  assert.equal(bare.code, 2);
  assert.match(bare.err, /Usage: shop <command>[\s\S]*error: give a command\n$/);
  const branch = await run(["books"]);
  assert.match(branch.err, /error: "books" needs a command\n$/);
  // "ad" is a book id to the grammar, so a command must follow; "add" was likely meant.
  const typo = await run(["books", "ad"]);
  assert.match(typo.err, /error: "books ad" needs a command; did you mean add\?\n$/);
});

Deno.test("cli: --help at every level lists commands, flags, types, choices, defaults and tags", async () => {
  const root = await run(["--help"]);
  assert.equal(root.code, 0);
  assert.match(root.out, /Usage: shop <command>/);
  assert.match(root.out, /\n {2}books +\.\.\.\n/);
  assert.match(root.out, /\n {2}ticks +\[streaming\]\n/);
  const books = await run(["books", "-h"]);
  assert.match(books.out, /\n {2}list +Lists every book \[readOnly\] \[idempotent\]\n/);
  assert.match(books.out, /\n {2}<bookId> +a value, then one of its commands\n/);
  const add = await run(["books", "add", "--help"]);
  assert.match(add.out, /Usage: shop books add \[flags\]\n\nAdds a book\n/);
  assert.match(add.out, /--title <string> +The title; \(required\)\n/);
  assert.match(add.out, /--pages <integer>\n/);
  assert.match(add.out, /--hardcover, --no-hardcover +default: false\n/);
  assert.match(add.out, /--genre <string> +one of: "novel", "poetry"\n/);
  assert.match(add.out, /--tags <string> +repeat for more\n/);
  assert.match(add.out, /--publisher\.name <string>\n/);
  assert.match(add.out, /--first-published <string>\n/);
  const remove = await run(["books", "7", "remove", "--help"]);
  assert.match(remove.out, /Tags: \[destructive\]/);
  assert.doesNotMatch(remove.out, /\nFlags:/, "a leaf without an input schema has no flags");
  assert.match(remove.out, /Input: any named values, as --<name> <value>/);
});

Deno.test("cli: a destructive leaf asks on a terminal; --yes skips; no terminal fails fast; readOnly never asks", async () => {
  const yes = await run(["books", "7", "remove"], memoryIo({ terminal: true, answer: "y" }));
  assert.deepEqual([yes.code, seen, yes.io.prompts], [0, ["removed 7"], [
    '"books 7 remove" is destructive. Proceed? [y/N] ',
  ]]);
  const no = await run(["books", "7", "remove"], memoryIo({ terminal: true, answer: "n" }));
  assert.deepEqual([no.code, no.err, seen], [1, "aborted\n", []]);
  const ended = await run(["books", "7", "remove"], memoryIo({ terminal: true }));
  assert.deepEqual([ended.code, seen], [1, []], "input ending at the prompt is a no");
  const flagged = await run(["books", "7", "remove", "--yes"], memoryIo({ terminal: true }));
  assert.deepEqual([flagged.code, seen, flagged.io.prompts], [0, ["removed 7"], []]);
  const short = await run(["books", "7", "remove", "-y"]);
  assert.deepEqual([short.code, seen], [0, ["removed 7"]]);
  const piped = await run(["books", "7", "remove"]);
  assert.deepEqual([piped.code, piped.err, seen], [
    1,
    'error: "books 7 remove" is destructive: pass --yes to run it without a terminal\n',
    [],
  ]);
  const read = await run(["books", "1", "read"], memoryIo({ terminal: true }));
  assert.deepEqual([read.code, read.io.prompts], [0, []]);
});

Deno.test("cli: output is pretty on a terminal, compact with --json or in a pipe; streams are JSON lines", async () => {
  const pretty = await run(["books", "1", "read"], memoryIo({ terminal: true }));
  assert.equal(pretty.out, '{\n  "id": "1",\n  "title": "Dune"\n}\n');
  const compact = await run(["books", "1", "read", "--json"], memoryIo({ terminal: true }));
  assert.equal(compact.out, '{"id":"1","title":"Dune"}\n');
  const stream = await run(["ticks", "--to", "3"], memoryIo({ terminal: true }));
  assert.equal(stream.out, '{"tick":1}\n{"tick":2}\n{"tick":3}\n');
  const nothing = await run(["books", "7", "remove", "--yes"]);
  assert.equal(nothing.out, "");
});

Deno.test("cli: failures are the tree's one line on stderr with exit 1; a fault's error follows it", async () => {
  const missing = await run(["books", "9", "read"]);
  assert.deepEqual([missing.code, missing.out, missing.err], [
    1,
    "",
    "error: 404 Not Found: No book 9\n",
  ]);
  const invalid = await run(["books", "add", "--title", ""]);
  assert.equal(invalid.code, 1);
  assert.match(invalid.err, /^error: 422 Unprocessable Content: title: .*\n$/);
  const declared = await run(["reserve"]);
  assert.deepEqual([declared.code, declared.err], [
    1,
    "error: 409 Conflict [SOLD_OUT]: Sold out\n",
  ]);
  const crash = await run(["boom"]);
  assert.deepEqual([crash.code, crash.err], [
    1,
    "error: 500 Internal Server Error\n  Error: the disk is full\n",
  ]);
  const midStream = await run(["seats"]);
  assert.deepEqual([midStream.code, midStream.out, midStream.err], [
    1,
    "1\n",
    "error: 409 Conflict [SOLD_OUT]: Sold out\n",
  ]);
});

Deno.test("cli: onError observes faults alone; the line stays the same", async () => {
  const reported: unknown[] = [];
  const onError = (error: unknown) => void reported.push(error);
  for (const argv of [["books", "9", "read"], ["reserve"], ["books", "add", "--title", ""]]) {
    assert.equal(await runCli(tree, argv, { io: memoryIo(), onError }), 1);
  }
  assert.deepEqual(reported, []);
  const io = memoryIo();
  assert.equal(await runCli(tree, ["boom"], { io, onError }), 1);
  assert.equal(io.stderr.join(""), "error: 500 Internal Server Error\n");
  assert.deepEqual(reported.map((error) => (error as Error).message), ["the disk is full"]);
  const throwing = memoryIo();
  const code = await runCli(tree, ["boom"], {
    io: throwing,
    onError: () => {
      throw new Error("the observer broke");
    },
  });
  assert.deepEqual([code, throwing.stderr.join("")], [1, "error: 500 Internal Server Error\n"]);
});

Deno.test("cli: past timeoutMs the call fails with 503 (exit 1), its signal aborted", async () => {
  const io = memoryIo();
  seen.length = 0;
  const code = await runCli(tree, ["wait"], { io, timeoutMs: 20 });
  assert.deepEqual([code, io.stderr.join(""), seen], [
    1,
    "error: 503 Service Unavailable: The operation did not finish within 20 ms\n",
    ["TimeoutError"],
  ]);
});

Deno.test("cli: a cancelled call exits 130, its handler's signal aborted", async () => {
  const controller = new AbortController();
  const io = memoryIo();
  seen.length = 0;
  setTimeout(() => controller.abort(), 20);
  const code = await runCli(tree, ["wait"], { io, signal: controller.signal });
  assert.deepEqual([code, io.stderr.join(""), seen], [
    130,
    "error: 499 Client Closed Request\n",
    ["AbortError"],
  ]);
});

Deno.test("cli: the context option is told the surface; its HttpError is the command's failure", async () => {
  const told: unknown[] = [];
  const io = memoryIo();
  const code = await runCli(tree, ["whoami"], {
    io,
    context: (source) => {
      told.push(source);
      return { tenant: "acme" };
    },
  });
  assert.deepEqual([code, io.stdout.join(""), told], [0, '{"tenant":"acme"}\n', [{
    surface: "cli",
  }]]);
  const refused = memoryIo();
  const denied = await runCli(tree, ["whoami"], {
    io: refused,
    context: () => {
      throw new HttpError(401, "Who are you?");
    },
  });
  assert.deepEqual([denied, refused.stderr.join("")], [
    1,
    "error: 401 Unauthorized: Who are you?\n",
  ]);
});

Deno.test("cli: remote mode calls a running server through the typed client, with the same output", async () => {
  await withServer(createFetch(tree, { onError: () => {} }), async (base) => {
    const local = await run(["books", "add", "--title", "Dune", "--tags", "sf"]);
    const remote = await run(["--url", base, "books", "add", "--title", "Dune", "--tags", "sf"]);
    assert.deepEqual([remote.code, remote.out], [0, local.out]);
    const read = await run(["books", "1", "read", "--url", base]);
    assert.equal(read.out, '{"id":"1","title":"Dune"}\n');
    const missing = await run(["--url", base, "books", "9", "read"]);
    assert.deepEqual([missing.code, missing.err], [1, "error: 404 Not Found: No book 9\n"]);
    const invalid = await run(["--url", base, "books", "add", "--title", ""]);
    assert.match(invalid.err, /^error: 422 Unprocessable Content: title: /);
    const declared = await run(["--url", base, "reserve"]);
    assert.deepEqual([declared.code, declared.err], [
      1,
      "error: 409 Conflict [SOLD_OUT]: Sold out\n",
    ]);
    const midStream = await run(["--url", base, "seats"]);
    assert.deepEqual([midStream.code, midStream.out, midStream.err], [
      1,
      "1\n",
      "error: 409 Conflict [SOLD_OUT]: Sold out\n",
    ]);
    const crash = await run(["--url", base, "boom"]);
    assert.deepEqual([crash.code, crash.err], [1, "error: 500 Internal Server Error\n"]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const cancelled = memoryIo();
    const code = await runCli(tree, ["--url", base, "wait"], {
      io: cancelled,
      signal: controller.signal,
    });
    assert.deepEqual([code, cancelled.stderr.join("")], [
      130,
      "error: 499 Client Closed Request\n",
    ]);
    const stream = await run(["--url", base, "ticks", "--to", "2"]);
    assert.equal(stream.out, '{"tick":1}\n{"tick":2}\n');
    const io = memoryIo();
    const byOption = await runCli(tree, ["books", "list"], { io, baseUrl: base });
    assert.deepEqual([byOption, io.stdout.join("")], [0, '[{"id":"1","title":"Dune"}]\n']);
  });
  const down = await run(["--url", "http://127.0.0.1:9", "books", "list"]);
  assert.equal(down.code, 1);
  assert.match(down.err, /^error: the server could not be reached/);
});

Deno.test("cli: a file input takes a path; the leaf gets a File", async () => {
  const files = api({
    attach: op(async ({ file, extra }) => ({
      name: file.name,
      text: await file.text(),
      extra: await Promise.all((extra ?? []).map((item) => item.text())),
    }), { input: z.object({ file: z.file(), extra: z.array(z.file()).optional() }) }),
  });
  const io = memoryIo({ files: { "dir/note.txt": "hello", "a": "A", "b": "B" } });
  const code = await runCli(files, [
    "attach",
    "--file",
    "dir/note.txt",
    "--extra",
    "a",
    "--extra",
    "b",
  ], { io });
  assert.deepEqual([code, JSON.parse(io.stdout.join(""))], [0, {
    name: "note.txt",
    text: "hello",
    extra: ["A", "B"],
  }]);
  const missing = memoryIo();
  assert.equal(await runCli(files, ["attach", "--file", "nope.txt"], { io: missing }), 2);
  assert.equal(missing.stderr.join(""), 'error: --file expects a readable file, got "nope.txt"\n');
});
