// One contender of the serving benchmark on Deno.serve:
//   deno run -A bench/serve/server.ts <floor|floorAsync|bare|hono|orpc|ramify> <port>
import { contender } from "./apps.ts";

const [name, port] = Deno.args;
const handler = contender(name);
if (handler === undefined) throw new Error(`no contender ${name}`);
Deno.serve({ port: Number(port), hostname: "127.0.0.1", onListen() {} }, handler);
