// `deno task test`: the whole suite (tests and every JSDoc example) with a
// short report: quiet type-checking, one dot per test folded into rows, then
// whatever failed and the summary line. Exits with the suite's status.
//   deno task test [extra deno test arguments, such as a path]

const FLAGS = [
  "test",
  "--quiet",
  "--reporter=dot",
  "--allow-net=127.0.0.1,localhost,0.0.0.0",
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-run",
  // The tests' packages at the versions they were last run with (deno.json sets
  // no lock, so that `deno task server` installs only what the example imports).
  "--lock=deno.lock",
  // Deno warns on every server whose handler reads `request.signal`, unless
  // the signal aborts only when the client goes away: what handlers want.
  "--unstable-no-legacy-abort",
];
const ROW = 100;

const child = new Deno.Command(Deno.execPath(), {
  args: [...FLAGS, ...(Deno.args.length === 0 ? ["--doc"] : Deno.args)],
  stdout: "piped",
  stderr: "piped",
}).spawn();

const encoder = new TextEncoder();
let dots = 0;
const flushDots = () => {
  if (dots === 0) return;
  Deno.stdout.writeSync(encoder.encode(`${".".repeat(dots)}\n`));
  dots = 0;
};

async function relay(stream: ReadableStream<BufferSource>, to: typeof Deno.stdout) {
  let pending = "";
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    pending += text;
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      if (line === ".") {
        if (++dots === ROW) flushDots();
        continue;
      }
      flushDots();
      to.writeSync(encoder.encode(`${line}\n`));
    }
  }
  if (pending !== "") to.writeSync(encoder.encode(pending));
}

await Promise.all([relay(child.stdout, Deno.stdout), relay(child.stderr, Deno.stderr)]);
flushDots();
Deno.exit((await child.status).code);
