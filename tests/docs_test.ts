// The docs name only files that exist: every repository path written in the
// README, BENCHMARKS.md and the pages under docs/ (in backticks, from the
// repository's root) must be there, and so must every page a link points to
// and every `@ramify/api/...` subpath they import from.
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const PAGES = [
  "README.md",
  "BENCHMARKS.md",
  ...[...Deno.readDirSync(new URL("docs/", ROOT))]
    .filter((entry) => entry.name.endsWith(".md")).map((entry) => `docs/${entry.name}`),
];
// Every top-level folder of the repository (library, tests, examples, ...), read, not listed,
// so that a new folder is covered the day it appears.
const FOLDERS = [...Deno.readDirSync(ROOT)]
  .filter((entry) => entry.isDirectory && !entry.name.startsWith(".") && entry.name !== "npm")
  .map((entry) => entry.name);

/** The repository paths a page names: `folder/...` in backticks, a file or a folder (`tree/`). */
function namedPaths(text: string, folders: readonly string[]): string[] {
  const path = new RegExp(`\`((?:${folders.join("|")})/(?:[\\w.-]+/)*(?:[\\w-]+\\.\\w+)?)\``, "g");
  return [...text.matchAll(path)].map(([, named]) => named);
}

/** The local targets of a page's Markdown links, resolved against the page's folder. */
function linkedPaths(page: string, text: string): string[] {
  const folder = page.split("/").slice(0, -1);
  return [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
    .map(([, target]) => target)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) =>
      [...folder, ...target.split("/")].reduce<string[]>(
        (parts, part) =>
          part === ".." ? parts.slice(0, -1) : part === "." ? parts : [...parts, part],
        [],
      ).join("/")
    );
}

/** The package subpaths a page names: `@ramify/api/graphql/ws` is `./graphql/ws`. */
function namedSubpaths(text: string): string[] {
  return [...text.matchAll(/@ramify\/api((?:\/[\w-]+)*)/g)].map(([, rest]) => `.${rest}`);
}

/** Whether the repository holds the file, or a folder with a file in it (git keeps no empty folder). */
function exists(path: string): boolean {
  const url = new URL(path, ROOT);
  try {
    if (Deno.statSync(url).isFile) return true;
  } catch {
    return false;
  }
  return [...Deno.readDirSync(url)].some((entry) =>
    entry.isFile || (entry.isDirectory && exists(`${path.replace(/\/$/, "")}/${entry.name}/`))
  );
}

Deno.test("docs: the path checks read what they look for", () => {
  const text = "See `cli/run.ts`, `pubsub/`, `tests/http/server/hostile_*_test.ts` and " +
    "`@ramify/api/tools`; [the tree](tree.md), [a section](http.md#input), " +
    "[up](../README.md), [out](https://example.com/x.md).";
  assert.deepEqual(namedPaths(text, ["cli", "pubsub", "tests", "tools"]), [
    "cli/run.ts",
    "pubsub/",
  ]);
  assert.deepEqual(namedSubpaths(text + ' from "@ramify/api"'), ["./tools", "."]);
  assert.deepEqual(linkedPaths("docs/README.md", text), [
    "docs/tree.md",
    "docs/http.md",
    "README.md",
  ]);
  assert.equal(exists("docs/"), true);
  assert.equal(exists("http/no_such_file.ts"), false);
});

Deno.test("docs: every repository file a page names or links exists", () => {
  for (const folder of ["tree", "http", "graphql", "tools", "cli", "serve", "pubsub", "docs"]) {
    assert.ok(FOLDERS.includes(folder), `${folder}/ is covered`);
  }
  const missing: string[] = [];
  let named = 0;
  for (const page of PAGES) {
    const text = Deno.readTextFileSync(new URL(page, ROOT));
    for (const path of [...namedPaths(text, FOLDERS), ...linkedPaths(page, text)]) {
      named++;
      if (!exists(path)) missing.push(`${page}: ${path}`);
    }
  }
  assert.ok(named > 10, "the pages were read");
  assert.deepEqual(missing, []);
});

Deno.test("docs: every @ramify/api subpath a page names is one the package exports", () => {
  const config = JSON.parse(Deno.readTextFileSync(new URL("deno.json", ROOT)));
  const unknown = PAGES.flatMap((page) =>
    namedSubpaths(Deno.readTextFileSync(new URL(page, ROOT)))
      .filter((subpath) => !(subpath in config.exports))
      .map((subpath) => `${page}: @ramify/api${subpath.slice(1)}`)
  );
  assert.deepEqual(unknown, []);
});
