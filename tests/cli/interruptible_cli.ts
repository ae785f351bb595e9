// A command line for the Ctrl-C test: `wait` gives up when its signal aborts,
// `stubborn` never does. Each says on stderr when it is waiting.
import { api, op } from "@ramify/api/tree";
import { mainCli } from "@ramify/api/cli";

const tree = api({
  wait: op((_input, { signal }) =>
    new Promise<never>((_resolve, reject) => {
      signal?.addEventListener("abort", () => {
        console.error(`aborted: ${(signal.reason as Error).name}`);
        reject(signal.reason);
      }, { once: true });
      console.error("waiting");
    })
  ),
  stubborn: op(() =>
    new Promise<never>(() => {
      // Keeps the process busy, as work that ignores its signal does.
      setInterval(() => {}, 1_000);
      console.error("waiting");
    })
  ),
});

await mainCli(tree, { name: "interruptible" });
