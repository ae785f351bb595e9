// tree/utf8.ts: the one reading of a client's bytes every surface uses. Checked
// against the WHATWG decoder in fatal mode over random bytes and random text.
import assert from "node:assert/strict";
import fc from "fast-check";
import { formComponent, utf8Text } from "../../tree/utf8.ts";

const fatal = new TextDecoder("utf-8", { fatal: true });

/** What the standard's strict decoder says: the text, or `undefined` when it throws. */
function expected(bytes: Uint8Array): string | undefined {
  try {
    return fatal.decode(bytes);
  } catch {
    return undefined;
  }
}

Deno.test("utf8Text: text, multi-byte characters, a sent U+FFFD and a byte-order mark", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  assert.equal(utf8Text(encode("")), "");
  assert.equal(utf8Text(encode('{"q":"{ ping }"}')), '{"q":"{ ping }"}');
  assert.equal(utf8Text(encode("Zoë 😀 中文")), "Zoë 😀 中文");
  // U+FFFD sent as its own bytes is a character like any other.
  assert.equal(utf8Text(encode("a\uFFFDb")), "a\uFFFDb");
  assert.equal(utf8Text(encode("a\uFFFDb".repeat(40))), "a\uFFFDb".repeat(40));
  assert.equal(utf8Text(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), "a");
});

Deno.test("utf8Text: bytes that are not UTF-8, short and long", () => {
  const cases = [[0x80], [0xff], [0x61, 0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [
    0xf4,
    0x90,
    0x80,
    0x80,
  ]];
  for (const bytes of cases) {
    assert.equal(utf8Text(new Uint8Array(bytes)), undefined, bytes.join(" "));
    // Past the ASCII fast path's length too, the bad bytes at the end.
    const long = new Uint8Array([...new TextEncoder().encode("x".repeat(100)), ...bytes]);
    assert.equal(utf8Text(long), undefined, `long, ${bytes.join(" ")}`);
  }
});

Deno.test("utf8Text agrees with the strict decoder on random bytes and on damaged text", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      assert.equal(utf8Text(bytes), expected(bytes));
    }),
    { numRuns: 5_000 },
  );
  fc.assert(
    fc.property(
      fc.string({ unit: "binary", maxLength: 120 }),
      fc.nat(),
      fc.integer({ min: 0, max: 255 }),
      (text, at, byte) => {
        const bytes = new TextEncoder().encode(text);
        if (bytes.length > 0) bytes[at % bytes.length] = byte;
        assert.equal(utf8Text(bytes), expected(bytes));
      },
    ),
    { numRuns: 5_000 },
  );
});

Deno.test("formComponent: + is a space, percent-encoding must spell UTF-8", () => {
  assert.equal(formComponent("a+b%20c"), "a b c");
  assert.equal(formComponent("Zo%C3%AB"), "Zoë");
  assert.equal(formComponent("%EF%BF%BD"), "\uFFFD");
  for (const malformed of ["%FF", "a%C3", "%E2%82", "100%", "%zz", "%ED%A0%80"]) {
    assert.equal(formComponent(malformed), undefined, malformed);
    // Where the standard form parser keeps going with U+FFFD or the text as it is.
    assert.notEqual(new URLSearchParams(`v=${malformed}`).get("v"), null);
  }
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (text) => {
      const encoded = encodeURIComponent(text).replaceAll("%20", "+");
      assert.equal(formComponent(encoded), text);
      assert.equal(formComponent(encoded), new URLSearchParams(`v=${encoded}`).get("v"));
    }),
    { numRuns: 2_000 },
  );
});
