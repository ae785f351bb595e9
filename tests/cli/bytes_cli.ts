// A command line with binary results, for the tests that run it as a process:
// `cover` is a PNG, `broken` a byte stream that fails after its first chunk.
import { api, op } from "@ramify/api/tree";
import { mainCli } from "@ramify/api/cli";

export const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 255]);

export const tree = api({
  cover: op(() => new File([PNG], "cover.png", { type: "image/png" }), {
    tags: { readOnly: true },
  }),
  broken: op(() => {
    let pulls = 0;
    return new ReadableStream<Uint8Array>({
      // The first chunk is read before the failure, as from a disk that goes away.
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(PNG.subarray(0, 4));
        else controller.error(new Error("the disk went away"));
      },
    });
  }, { tags: { readOnly: true } }),
});

if (import.meta.main) await mainCli(tree, { name: "bytes" });
