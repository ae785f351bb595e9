// An MCP server over stdio for the tests: the MCP test tree, its context
// option, and a crash observer that writes to stderr (stdout carries the protocol).
import { serveMcpStdio } from "@ramify/api/tools";
import { cancelled, context, tree } from "./mcp_tree.ts";

cancelled.resolve = () => console.error("cancelled");
await serveMcpStdio(tree, {
  name: "ramify-test",
  version: "1.0.0",
  instructions: "Books and ticks, for tests.",
  context,
  onError: (error) => console.error("crash:", (error as Error).message),
});
