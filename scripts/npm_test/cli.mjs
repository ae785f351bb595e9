// The fixture tree as a command line, run as its own process by the suites.
import { mainCli } from "@ramify/api/cli";
import { makeTree } from "./fixture.mjs";

await mainCli(makeTree(), { name: "npm-cli" });
