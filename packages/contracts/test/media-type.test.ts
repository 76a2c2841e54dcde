import { isUtf8 } from "node:buffer";
import { MIMEType } from "node:util";
import { fc, test } from "@fast-check/vitest";
import { binaryString } from "@idp/test-utils/arbitraries";
import { describe, expect, it } from "vitest";
import { invalidUtf8Offset, jsonMediaTypeProblem, parseMediaType } from "../src/index.ts";

// The media-type parser is ours (no parser is a dependency): it is held to Node's util.MIMEType
// (WHATWG MIME Sniffing) on every input, and to RFC 9110's grammar on headers generated from it.
// The UTF-8 offset is held to node:buffer's isUtf8.

const TOKEN_CHARS = "!#$%&'*+.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-";
const token = fc
  .array(fc.constantFrom(...TOKEN_CHARS), { minLength: 1, maxLength: 8 })
  .map((cs) => cs.join(""));
/** Any case of the letters of `word`. */
const anyCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((up) => [...word].map((c, i) => (up[i] ? c.toUpperCase() : c.toLowerCase())).join(""));
const ows = fc.constantFrom("", " ", "\t", "  ", " \t");
// qdtext: HTAB, SP, !, #-[, ]-~, obs-text; a quoted-pair escapes HTAB, SP, VCHAR or obs-text.
const qdChar = fc.oneof(
  fc.constantFrom("\t", " ", "!"),
  fc.integer({ min: 0x23, max: 0x5b }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x5d, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
);
const pairChar = fc.oneof(
  fc.constantFrom("\t", " "),
  fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
);
/** A parameter value as written and as meant. */
const value = fc.oneof(
  token.map((t) => ({ written: t, meant: t })),
  fc
    .array(
      fc.oneof(
        qdChar.map((c) => ({ written: c, meant: c })),
        pairChar.map((c) => ({ written: `\\${c}`, meant: c })),
      ),
      { maxLength: 6 },
    )
    .map((parts) => ({
      written: `"${parts.map((p) => p.written).join("")}"`,
      meant: parts.map((p) => p.meant).join(""),
    })),
);
const parameter = fc.record({ name: token, value });
/** A Content-Type built from RFC 9110 §8.3.1's grammar, and what it means. */
const mediaType = fc
  .record({
    lead: ows,
    type: token,
    subtype: token,
    params: fc.array(fc.record({ before: ows, after: ows, p: fc.option(parameter) }), {
      maxLength: 4,
    }),
    trail: ows,
  })
  .map(({ lead, type, subtype, params, trail }) => ({
    text: `${lead}${type}/${subtype}${params.map(({ before, after, p }) => `${before};${after}${p ? `${p.name}=${p.value.written}` : ""}`).join("")}${trail}`,
    type: type.toLowerCase(),
    subtype: subtype.toLowerCase(),
    parameters: params.flatMap(({ p }) =>
      p ? [[p.name.toLowerCase(), p.value.meant] as const] : [],
    ),
  }));

/** The first value of each parameter name (WHATWG keeps the first of a repeated name). */
const firstValues = (parameters: readonly (readonly [string, string])[]) => {
  const first = new Map<string, string>();
  for (const [n, v] of parameters) if (!first.has(n)) first.set(n, v);
  return first;
};
const whatwg = (text: string) => {
  try {
    return new MIMEType(text);
  } catch {
    return undefined;
  }
};

describe("parseMediaType", () => {
  test.prop([mediaType], { seed: 9110, numRuns: 2000 })(
    "reads every header RFC 9110's grammar makes, as util.MIMEType does",
    (m) => {
      const parsed = parseMediaType(m.text);
      expect(parsed).toEqual({ type: m.type, subtype: m.subtype, parameters: m.parameters });
      const mime = whatwg(m.text);
      expect(mime?.essence).toBe(`${m.type}/${m.subtype}`);
      expect(new Map(mime?.params.entries())).toEqual(firstValues(m.parameters));
    },
  );

  // Strings from the characters that matter to the grammar, malformed ones most of all.
  const soup = fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...'aJ/;=" \t\\,-+.') },
        { weight: 2, arbitrary: token },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            "application/json",
            "charset=",
            "\r",
            "\n",
            "é",
            "\u0000",
            "\u007f",
          ),
        },
      ),
      { maxLength: 14 },
    )
    .map((parts) => parts.join(""));

  test.prop([soup], { seed: 7231, numRuns: 5000 })(
    "accepts only what util.MIMEType accepts, and reads it alike",
    (text) => {
      const parsed = parseMediaType(text);
      const mime = whatwg(text);
      if (mime === undefined) expect(parsed).toBeUndefined();
      if (parsed === undefined) return;
      expect(mime?.essence).toBe(`${parsed.type}/${parsed.subtype}`);
      expect(new Map(mime?.params.entries())).toEqual(firstValues(parsed.parameters));
    },
  );

  it.each([
    ["a parameter without =", "application/json; charset"],
    ["a space before =", "application/json; charset =utf-8"],
    ["a space after =", "application/json; charset= utf-8"],
    ["no semicolon", "application/json charset=utf-8"],
    ["an unterminated quote", 'application/json; charset="utf-8'],
    ["a value that is no token", "application/json; charset=utf 8"],
    ["no subtype", "application/"],
    ["a comma list", "application/json, text/plain"],
  ])("refuses %s, which RFC 9110's grammar has no production for", (_, text) => {
    expect(parseMediaType(text)).toBeUndefined();
  });
});

describe("jsonMediaTypeProblem (R2)", () => {
  const utf8Label = fc.oneof(anyCase("utf-8"), anyCase("utf8"), fc.constant('"UTF-8"'));
  const otherParam = fc
    .record({ name: token, value: token })
    .filter(({ name }) => name.toLowerCase() !== "charset");
  const json = fc.record({
    essence: anyCase("application/json"),
    params: fc.array(
      fc.oneof(
        utf8Label.map((l) => `charset=${l}`),
        otherParam.map(({ name, value: v }) => `${name}=${v}`),
      ),
      { maxLength: 3 },
    ),
    sep: fc.constantFrom(";", "; ", " ;\t"),
  });

  test.prop([json], { seed: 8259 })(
    "takes application/json in any case, with any parameters and a UTF-8 charset",
    ({ essence, params, sep }) => {
      const text = [essence, ...params].join(sep);
      expect(jsonMediaTypeProblem(text)).toBeUndefined();
    },
  );

  // Labels of other encodings (WHATWG Encoding), in any case: a charset other than UTF-8.
  const otherLabel = fc
    .constantFrom(
      "iso-8859-1",
      "latin1",
      "windows-1252",
      "us-ascii",
      "utf-16",
      "utf-16le",
      "shift_jis",
      "gbk",
      "x-user-defined",
      "utf-7",
      "no-such-charset",
    )
    .chain(anyCase);

  test.prop([json, otherLabel], { seed: 8259 })(
    "refuses a charset other than UTF-8, wherever it stands",
    ({ essence, params, sep }, label) => {
      const text = [essence, ...params, `charset=${label}`].join(sep);
      expect(jsonMediaTypeProblem(text)).toBe(`charset ${JSON.stringify(label)} is not UTF-8`);
    },
  );

  it.each([
    ["text/plain", "the media type is text/plain"],
    ["application/problem+json", "the media type is application/problem+json"],
    ["application/jsonx", "the media type is application/jsonx"],
    ["application/json; charset", "not a media type (RFC 9110 §8.3.1)"],
  ])("names why %s is not application/json", (text, why) => {
    expect(jsonMediaTypeProblem(text)).toBe(why);
  });
});

describe("invalidUtf8Offset", () => {
  // Bytes that are mostly UTF-8 (so the offset can be anywhere), with stray bytes among them.
  const bytes = fc
    .array(
      fc.oneof(
        binaryString({ maxLength: 4 }).map((s) => [...Buffer.from(s, "utf8")]),
        fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 3 }),
        fc.constantFrom(
          [0xef, 0xbf, 0xbd],
          [0xef, 0xbb, 0xbf],
          [0xed, 0xa0, 0x80],
          [0xf4, 0x90, 0x80, 0x80],
          [0xc0, 0x80],
        ),
      ),
      { maxLength: 12 },
    )
    .map((chunks) => Uint8Array.from(chunks.flat()));

  test.prop([bytes], { seed: 3629, numRuns: 5000 })(
    "is the first byte that begins no UTF-8 character, as node:buffer's isUtf8 tells",
    (b) => {
      const at = invalidUtf8Offset(b);
      if (isUtf8(b)) {
        expect(at).toBeUndefined();
        return;
      }
      expect(at).toBeDefined();
      const k = at as number;
      // Everything before it is UTF-8, and no well-formed character starts at it.
      expect(isUtf8(b.subarray(0, k))).toBe(true);
      for (let m = 1; m <= Math.min(4, b.length - k); m++)
        expect(isUtf8(b.subarray(0, k + m)), `prefix of ${k + m} bytes`).toBe(false);
    },
  );
});
