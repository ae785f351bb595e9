// An MCP server over stdio for the interaction tests: a leaf that logs and
// asks, and a destructive one that must be confirmed.
import { api, op } from "@ramify/api/tree";
import { serveMcpStdio } from "@ramify/api/tools";
import { ask, log } from "../../tree/interaction.ts";

let removed = 0;
await serveMcpStdio(
  api({
    shelf: op(async (_input, ctx) => {
      log(ctx, "info", "asking");
      return await ask(ctx, {
        message: "Which shelf?",
        schema: { type: "object", properties: { shelf: { type: "integer" } }, required: ["shelf"] },
      });
    }, { tags: { readOnly: true } }),
    remove: op(() => ++removed, { tags: { destructive: true } }),
  }),
  { name: "interaction-stdio" },
);
