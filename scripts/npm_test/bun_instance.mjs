// One instance for the balancer check (scripts/npm_build/balancer.ts): the
// fixture's tree on serve() at PORT, as an instance behind docs/deploy.md's
// HAProxy runs; it says "listening" once it answers, and closes on SIGTERM.
import process from "node:process";
import { serve } from "@ramify/api/serve";
import { makeTree } from "./fixture.mjs";

const server = await serve(makeTree(), {
  port: Number(process.env.PORT),
  hostname: "127.0.0.1",
  quiet: true,
});
console.log("listening");
process.on("SIGTERM", () => server.close().then(() => process.exit(0)));
