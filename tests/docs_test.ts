// The docs name only files that exist: every repository path written in the
// README, BENCHMARKS.md and the pages under docs/ must be there.
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const PAGES = [
  "README.md",
  "BENCHMARKS.md",
  ...[...Deno.readDirSync(new URL("docs/", ROOT))]
    .filter((entry) => entry.name.endsWith(".md")).map((entry) => `docs/${entry.name}`),
];
// A path in backticks that starts at a top-level folder of the repository.
const PATH =
  /`((?:tree|http|graphql|tests|bench|scripts|examples|docs)\/[\w./-]+\.(?:ts|md|mjs))`/g;

Deno.test("docs: every repository file a page names exists", () => {
  const missing: string[] = [];
  let named = 0;
  for (const page of PAGES) {
    const text = Deno.readTextFileSync(new URL(page, ROOT));
    for (const [, path] of text.matchAll(PATH)) {
      named++;
      try {
        Deno.statSync(new URL(path, ROOT));
      } catch {
        missing.push(`${page}: ${path}`);
      }
    }
  }
  assert.ok(named > 10, "the pages were read");
  assert.deepEqual(missing, []);
});
