// Node: docs/serve.md's Node programs, copied as they are, run with `node` in a
// project that installed what the README says; each answers and prints
// nothing on standard error (no warning, no missing package).
import assert from "node:assert/strict";
import { test } from "node:test";
import { APPS, checkEverySurface, expectStatus, readmeApp, runApp } from "./readme_apps.mjs";

const options = { timeout: 120_000 };

test(
  "node: docs/serve.md's serve() program serves every surface, and warns of nothing",
  options,
  async () => {
    const stderr = await runApp(readmeApp(APPS.serve), "/health", checkEverySurface);
    assert.equal(stderr, "");
  },
);

test(
  "node: the README's @hono/node-server program answers, and warns of nothing",
  options,
  async () => {
    const stderr = await runApp(readmeApp(APPS.hono), "/hello?name=Ann", async (base) => {
      assert.equal(await expectStatus(`${base}/hello?name=Ann`, 200), '"Hello, Ann"');
      await expectStatus(`${base}/hello`, 422);
    });
    assert.equal(stderr, "");
  },
);
