import { bare, ramify } from "./bench/serve/apps.ts";
const server = Deno.serve(
  { port: Number(Deno.args[1]), hostname: "127.0.0.1", onListen() {} },
  Deno.args[0] === "bare" ? bare : ramify(),
);
setTimeout(async () => {
  await server.shutdown();
}, 7000);
