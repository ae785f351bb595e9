// The official MCP conformance suite (@modelcontextprotocol/conformance, every
// server scenario, pending ones included) against a ramify tree served over
// Streamable HTTP: tests/tools/conformance_tree.ts, the suite's reference
// tools, resources and prompts written as a tree, with no MCP code in it.
// The suite's CLI needs Node 22: both come from npm into a shared temporary
// folder (tests/support/npm_tools.ts); without npm the test is ignored, with
// the reason printed. The suite runs once, all scenarios in one invocation;
// each scenario is then a step that names every check it failed or warned of.
import assert from "node:assert/strict";
import { createMcpHandler } from "@ramify/api/tools";
import { options, tree } from "./conformance_tree.ts";
import { npmTool } from "../support/npm_tools.ts";

const SUITE = "@modelcontextprotocol/conformance@0.1.16";

/** Every server scenario of the suite's version, in its order. */
const SCENARIOS = [
  "server-initialize",
  "logging-set-level",
  "ping",
  "completion-complete",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-sampling",
  "tools-call-elicitation",
  "json-schema-2020-12",
  "elicitation-sep1034-defaults",
  "server-sse-polling",
  "server-sse-multiple-streams",
  "elicitation-sep1330-enums",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "dns-rebinding-protection",
];

/** The scenarios expected to fail, and why. */
const EXPECTED_FAILURES: Record<string, string> = {
  "tools-call-sampling":
    "ramify offers no sampling: a handler has no way to ask the client's model for a completion",
};

/**
 * Checks that must succeed, not merely be told (the suite reports some only
 * as information when the server does less, such as never closing a stream).
 */
const MUST_SUCCEED: Record<string, readonly string[]> = {
  "server-sse-polling": [
    "server-sse-priming-event",
    "server-sse-retry-field",
    "server-sse-disconnect-resume",
  ],
};

interface Check {
  readonly id: string;
  readonly status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  readonly errorMessage?: string;
}

const tool = await npmTool("ramify-mcp-conformance-0.1.16", [SUITE], "conformance");
if (tool === undefined) {
  console.warn(`conformance test ignored: npm could not install ${SUITE} with node@22`);
}

/** Runs the whole suite once against the URL; each scenario's checks. */
async function runSuite(url: string): Promise<Map<string, Check[]>> {
  const out = await Deno.makeTempDir({ prefix: "ramify-conformance-" });
  try {
    const run = await new Deno.Command(tool!.node, {
      args: [tool!.bin("conformance"), "server", "--suite", "all", "--url", url, "-o", out],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const checks = new Map<string, Check[]>();
    for await (const entry of Deno.readDir(out)) {
      // A scenario's folder is `server-<scenario>-<timestamp>`.
      const scenario = SCENARIOS.find((name) =>
        entry.name.startsWith(`server-${name}-`) &&
        /^\d{4}-/.test(entry.name.slice(8 + name.length))
      );
      assert.ok(scenario, `a result folder of no known scenario: ${entry.name}`);
      checks.set(
        scenario,
        JSON.parse(await Deno.readTextFile(`${out}/${entry.name}/checks.json`)) as Check[],
      );
    }
    if (checks.size === 0) {
      const decoder = new TextDecoder();
      assert.fail(
        `the suite wrote no results:\n${decoder.decode(run.stdout)}\n${decoder.decode(run.stderr)}`,
      );
    }
    return checks;
  } finally {
    await Deno.remove(out, { recursive: true });
  }
}

Deno.test({
  name: `MCP conformance: ${SUITE}, every server scenario, against a tree`,
  ignore: tool === undefined,
  async fn(t) {
    const mcp = createMcpHandler(tree, options);
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, mcp);
    let results: Map<string, Check[]>;
    try {
      results = await runSuite(`http://127.0.0.1:${server.addr.port}/mcp`);
    } finally {
      await mcp.close();
      await server.shutdown();
    }
    for (const scenario of SCENARIOS) {
      await t.step(scenario, () => {
        const checks = results.get(scenario);
        assert.ok(checks !== undefined && checks.length > 0, `${scenario}: no checks ran`);
        // A warning is a SHOULD the server missed: counted as a failure here.
        const bad = checks.filter((check) =>
          check.status === "FAILURE" || check.status === "WARNING"
        )
          .map((check) => `${check.id} ${check.status}: ${check.errorMessage ?? ""}`);
        const reason = EXPECTED_FAILURES[scenario];
        if (reason === undefined) {
          assert.deepEqual(bad, [], `${scenario} failed checks`);
          for (const id of MUST_SUCCEED[scenario] ?? []) {
            const statuses: string[] = checks.filter((check) => check.id === id).map(({ status }) =>
              status
            );
            assert.deepEqual(statuses, ["SUCCESS"], `${scenario}: ${id}`);
          }
        } else {
          assert.notDeepEqual(bad, [], `${scenario} passes now: take it off EXPECTED_FAILURES`);
        }
      });
    }
  },
});
