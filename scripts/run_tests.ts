// `deno task test`: the whole suite (tests and every JSDoc example) with a
// short report: quiet type-checking, one mark per test (`.` passed, `,`
// ignored, `!` failed) folded into rows of 100, then whatever failed and the
// summary line. The same in a terminal, where Deno colours each mark on a line
// of its own, and in CI. Exits with the suite's status.
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
let row = "";
const flushRow = () => {
  if (row === "") return;
  Deno.stdout.writeSync(encoder.encode(`${row}\n`));
  row = "";
};

// Colours and other terminal escapes (CSI sequences), which Deno adds in a terminal.
// deno-lint-ignore no-control-regex
const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]/g;
/** A line of the dot reporter's marks alone, escapes aside: each one test. */
const MARKS = /^[.,!]+$/;

async function relay(stream: ReadableStream<BufferSource>, to: typeof Deno.stdout) {
  let pending = "";
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    pending += text;
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      const plain = line.replace(ESCAPES, "").trim();
      if (MARKS.test(plain)) {
        for (const mark of plain) {
          row += mark;
          if (row.length === ROW) flushRow();
        }
        continue;
      }
      flushRow();
      to.writeSync(encoder.encode(`${line}\n`));
    }
  }
  if (pending !== "") to.writeSync(encoder.encode(pending));
}

await Promise.all([relay(child.stdout, Deno.stdout), relay(child.stderr, Deno.stderr)]);
flushRow();
Deno.exit((await child.status).code);
