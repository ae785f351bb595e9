// A long-running leaf that asks a question, for the tests that answer a
// task's question on one surface (the CLI's `answer`, GraphQL's `answerTask`).
import { z } from "zod";
import { api, ask, op } from "@ramify/api/tree";

/** `shelve({ title })` asks "Which shelf for {title}?" (an integer) and returns the shelf (0 unanswered). */
export const shelving = api({
  shelve: op(async ({ title }, ctx) => {
    const said = await ask(ctx, {
      message: `Which shelf for ${title}?`,
      schema: { type: "object", properties: { shelf: { type: "integer" } }, required: ["shelf"] },
    });
    return { title, shelf: said.action === "accept" ? Number(said.content.shelf) : 0 };
  }, {
    tags: { longRunning: true },
    input: z.object({ title: z.string() }),
    output: z.object({ title: z.string(), shelf: z.number() }),
  }),
});
