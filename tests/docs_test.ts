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
  for (
    const folder of [
      "tree",
      "route",
      "web",
      "client",
      "http",
      "graphql",
      "tools",
      "cli",
      "serve",
      "pubsub",
      "docs",
    ]
  ) {
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

// Options and names: every option an options table names (a column headed `option`) is an option
// of a function its section's heading names, and every name a page says comes from a subpath
// (`name` (from `@ramify/api/...`), and the architecture page's table of names and subpaths) is
// exported there. Checked by type-checking one generated module: a drift is a type error.

/** Where each function an options table's heading may name is exported. */
const OPTION_OWNERS: Readonly<Record<string, string>> = {
  createFetch: "@ramify/api/http",
  createRouter: "@ramify/api/http",
  createGraphQLServer: "@ramify/api/graphql",
  createHttpGraphQLServer: "@ramify/api/graphql",
  createWsHandler: "@ramify/api/graphql/ws",
  handleBunWebSocket: "@ramify/api/graphql/ws",
  createMcpHandler: "@ramify/api/tools",
  serveMcpStdio: "@ramify/api/tools",
  runCli: "@ramify/api/cli",
  mainCli: "@ramify/api/cli",
  serve: "@ramify/api/serve",
  createHandler: "@ramify/api/serve",
};

/** One option a table names: the page and line, the option's path, the functions to look in. */
interface NamedOption {
  readonly at: string;
  readonly option: string;
  readonly owners: readonly string[];
}

/** The cells of a Markdown table row. */
function cellsOf(line: string): string[] {
  return line.trim().replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim());
}

/** The options a page's option tables name, each with the functions its heading names. */
function namedOptions(page: string, text: string): NamedOption[] {
  const found: NamedOption[] = [];
  let owners: string[] = [];
  let column = -1;
  text.split("\n").forEach((line, index) => {
    if (/^#+ /.test(line)) {
      owners = [...line.matchAll(/`(\w+)`/g)].map(([, name]) => name)
        .filter((name) => name in OPTION_OWNERS);
      column = -1;
      return;
    }
    if (!line.startsWith("|")) {
      column = -1;
      return;
    }
    const cells = cellsOf(line);
    if (column === -1) {
      column = cells.indexOf("option");
      if (column === -1) column = -2; // a table of something else
      return;
    }
    if (column < 0 || /^-+$/.test(cells[column]) || /^:?-+:?$/.test(cells[0])) return;
    const option = /^`([\w.]+)(?::[^`]*)?`$/.exec(cells[column])?.[1];
    if (option === undefined) return; // "(the SDK's)": no option of ours
    found.push({ at: `${page}:${index + 1}`, option, owners });
  });
  return found;
}

/** `name` (from `@ramify/api/...`) in prose, and the architecture page's name/subpath rows. */
function namedExports(page: string, text: string): { at: string; name: string; from: string[] }[] {
  const found: { at: string; name: string; from: string[] }[] = [];
  text.split("\n").forEach((line, index) => {
    const at = `${page}:${index + 1}`;
    for (
      const [, name, from] of line.matchAll(
        /`(\w+)(?:\([^`]*\))?` \(from `(@ramify\/api[\w/-]*)`\)/g,
      )
    ) {
      found.push({ at, name, from: [from] });
    }
    const cells = line.startsWith("|") ? cellsOf(line) : [];
    const subpaths = [...(cells[1] ?? "").matchAll(/`\.(\/[\w/-]*)?`/g)]
      .map(([, rest]) => `@ramify/api${rest ?? ""}`);
    if (subpaths.length === 0 || subpaths.some((subpath) => subpath.includes("*"))) return;
    for (const [, name] of cells[0].matchAll(/`([A-Za-z_$][\w$]*)[^`]*`/g)) {
      if (name !== "http") found.push({ at, name, from: subpaths });
    }
  });
  return found;
}

Deno.test("docs: the option and export readers read what they look for", () => {
  const page = [
    "## HTTP (`createFetch`, `createRouter`)",
    "",
    "| option | default |",
    "| ------ | ------- |",
    "| `maxBodyBytes` | 1 MiB |",
    "| `limits.maxDepth` | 15 |",
    "| `introspection: false` | (on) |",
    "| (the SDK's) | 4 MiB |",
    "",
    "| store | keys |",
    "| ----- | ---- |",
    "| `books` | hash |",
    "`safeGraphQL(call)` (from `@ramify/api/graphql/client`) narrows.",
    "| `serve`, `createHandler`; `serveNode` | `./serve`, `./serve/node` | `serve/handler.ts` |",
  ].join("\n");
  assert.deepEqual(namedOptions("p.md", page), [
    { at: "p.md:5", option: "maxBodyBytes", owners: ["createFetch", "createRouter"] },
    { at: "p.md:6", option: "limits.maxDepth", owners: ["createFetch", "createRouter"] },
    { at: "p.md:7", option: "introspection", owners: ["createFetch", "createRouter"] },
  ]);
  assert.deepEqual(namedExports("p.md", page), [
    { at: "p.md:13", name: "safeGraphQL", from: ["@ramify/api/graphql/client"] },
    ...["serve", "createHandler", "serveNode"].map((name) => ({
      at: "p.md:14",
      name,
      from: ["@ramify/api/serve", "@ramify/api/serve/node"],
    })),
  ]);
});

Deno.test("docs: every option a table names and every name said to come from a subpath exist", async () => {
  const options = PAGES.filter((page) => page.startsWith("docs/"))
    .flatMap((page) => namedOptions(page, Deno.readTextFileSync(new URL(page, ROOT))));
  const exports = PAGES.flatMap((page) =>
    namedExports(page, Deno.readTextFileSync(new URL(page, ROOT)))
  );
  assert.ok(options.length > 40, `${options.length} options read`);
  assert.ok(exports.length > 80, `${exports.length} names read`);
  const lines = [
    ...Object.entries(OPTION_OWNERS).map(([name, from]) => `import { ${name} } from "${from}";`),
    "type Options<F> = F extends (...args: infer A) => unknown",
    "  ? Required<A> extends [...unknown[], infer L] ? Exclude<L, false | null | undefined> : never",
    "  : never;",
    "type Has<T, P extends string> = P extends `${infer H}.${infer R}`",
    "  ? H extends keyof T ? Has<Exclude<T[H], false | null | undefined>, R> : false",
    "  : P extends keyof T ? true : false;",
  ];
  // Each check is one or more lines of the module; it holds when one of its lines type-checks.
  const checks: { label: string; lines: number[] }[] = [];
  const check = (label: string, alternatives: readonly string[]) => {
    checks.push({ label, lines: alternatives.map((line) => lines.push(line)) });
  };
  const orphans = options.filter(({ owners }) => owners.length === 0)
    .map(({ at, option }) => `${at}: ${option} under a heading that names no function`);
  assert.deepEqual(orphans, []);
  for (const owner of Object.keys(OPTION_OWNERS)) {
    // An options type that came out `never` would have every key: each must be a real one.
    check(`${owner} has an options type`, [
      `export const k${lines.length}: [Options<typeof ${owner}>] extends [never] ? false : true = true;`,
    ]);
  }
  for (const { at, option, owners } of options) {
    const has = owners.map((owner) => `Has<Options<typeof ${owner}>, "${option}">`).join(" | ");
    check(`${at}: ${option} (${owners.join(", ")})`, [
      `export const o${lines.length}: ${has} = true;`,
    ]);
  }
  for (const { at, name, from } of exports) {
    check(
      `${at}: ${name} from ${from.join(" or ")}`,
      from.map((subpath, i) => `import { ${name} as n${lines.length}_${i} } from "${subpath}";`),
    );
  }
  // A canary that must fail, so that a checker passing everything is noticed.
  check("canary", [
    `export const canary: Has<Options<typeof createFetch>, "noSuchOption"> = true;`,
  ]);
  const file = new URL(`.docs_options_${crypto.randomUUID()}.ts`, ROOT);
  await Deno.writeTextFile(file, lines.join("\n") + "\n");
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", file.pathname],
      cwd: ROOT.pathname,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stderr);
    const errors = new Set(
      [...text.matchAll(/\.docs_options_[\w-]+\.ts:(\d+):\d+/g)].map(([, line]) => Number(line)),
    );
    assert.ok(errors.size > 0 || output.code === 0, text);
    const failing = checks.filter((each) => each.lines.every((line) => errors.has(line)))
      .map((each) => each.label);
    assert.deepEqual(failing, ["canary"], text.slice(0, 4000));
  } finally {
    await Deno.remove(file);
  }
});
