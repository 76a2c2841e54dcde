// Answer byte streams for the differential test of the verifier's HTTP/1.1 client against undici
// (test/h1-differential.test.ts): well-formed answers, and answers malformed in each way
// conformance.md §9 lists (a bad status line, forbidden characters in a header name or value,
// Content-Length with Transfer-Encoding, differing Content-Lengths, a chunk size outside RFC 9112
// §7.1, bare LF line ends, obs-fold, a 101 nobody asked for), interim 1xx answers, HEAD, 204/304,
// bodies framed every way, each stream whole or cut short.
import fc from "fast-check";

const pick = <T>(...xs: T[]) => fc.constantFrom(...xs);

/** A line end: CRLF mostly, bare LF or CR now and then. */
const eol = fc.oneof(
  { weight: 12, arbitrary: fc.constant("\r\n") },
  { weight: 1, arbitrary: pick("\n", "\r") },
);

/** Text with bytes that header values forbid (NUL, controls, DEL, CR, LF) or allow (tab, obs-text). */
const valueText = fc.oneof(
  { weight: 6, arbitrary: pick("a", "application/json", "x y", "1", "") },
  { weight: 2, arbitrary: pick("a \t ", "\ta", "caf\u00e9", "\u00ff\u0080") },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        pick("a", "b c"),
        pick("\u0000", "\u0001", "\u001b", "\u007f", "\r", "\n", "\u001f", "\t", "\u00a0"),
        pick("b", ""),
      )
      .map(([a, x, b]) => `${a}${x}${b}`),
  },
);

const fieldName = fc.oneof(
  { weight: 8, arbitrary: pick("X-A", "Content-Type", "Set-Cookie", "x-b", "Keep-Alive") },
  { weight: 1, arbitrary: pick("X A", "X(", "X\u00e9", "", "X\t", "__proto__", "constructor") },
);

const colon = fc.oneof(
  { weight: 6, arbitrary: fc.constant(": ") },
  { weight: 2, arbitrary: pick(":", ":\t ", ":  ") },
  { weight: 1, arbitrary: pick(" :", "") },
);

const field = fc
  .tuple(fieldName, colon, valueText, eol, fc.option(pick(" folded", "\tfolded"), { freq: 12 }))
  .map(([n, c, v, e, fold]) => `${n}${c}${v}${e}${fold ? `${fold}\r\n` : ""}`);

const connection = pick(
  "Connection: close\r\n",
  "Connection: keep-alive\r\n",
  "Connection: Keep-Alive, x\r\n",
  "Connection: closex\r\n",
  "Proxy-Connection: close\r\n",
  "Keep-Alive: timeout=5\r\n",
);

const statusLine = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .tuple(
        pick("HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0"),
        pick(200, 201, 204, 304, 400, 401, 404, 422, 500, 503, 999),
        pick(" OK", " Created", "", " ", " Bad \u0001 \u00e9"),
        eol,
      )
      .map(([v, s, r, e]) => `${v} ${s}${r}${e}`),
  },
  {
    weight: 2,
    arbitrary: pick(
      "HTTP/2.0 200 OK\r\n",
      "HTTP/0.9 200 OK\r\n",
      "HTTP/1.2 200 OK\r\n",
      "http/1.1 200 OK\r\n",
      "HTTP/1.x 200 OK\r\n",
      "HTTP/1.1  200 OK\r\n",
      "HTTP/1.1\t200 OK\r\n",
      "HTTP/1.1 20 OK\r\n",
      "HTTP/1.1 2000 OK\r\n",
      "HTTP/1.1 2x0 OK\r\n",
      "HTTP/1.1 200OK\r\n",
      "SSH-2.0-OpenSSH_9.6\r\n",
      "\r\nHTTP/1.1 200 OK\r\n",
    ),
  },
);

/**
 * How the body is framed, and the bytes that follow the head. `ends` keeps to framings that end by
 * themselves (a Content-Length that is all there, chunked): an answer in the middle of a keep-alive
 * sequence, which no close follows.
 */
const framing = (body: string, ends: boolean) =>
  ends
    ? fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constant({ headers: `Content-Length: ${body.length}\r\n`, body }),
        },
        { weight: 2, arbitrary: chunked(body) },
        {
          weight: 1,
          arbitrary: pick(
            `Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n`,
            `Content-Length: +${body.length}\r\n`,
          ).map((headers) => ({ headers, body })),
        },
      )
    : fc.oneof(
        {
          weight: 6,
          arbitrary: fc.constant({ headers: `Content-Length: ${body.length}\r\n`, body }),
        },
        {
          weight: 2,
          arbitrary: pick(
            `Content-Length: 00${body.length}\r\n`,
            `Content-Length:  ${body.length}  \r\n`,
            `content-length: ${body.length}\r\n`,
            `Content-Length: ${body.length + 3}\r\n`,
          ).map((headers) => ({ headers, body })),
        },
        {
          weight: 2,
          arbitrary: pick(
            `Content-Length: +${body.length}\r\n`,
            `Content-Length: ${body.length}, ${body.length}\r\n`,
            `Content-Length: ${body.length} x\r\n`,
            `Content-Length: ${body.length}\t\r\n`,
            "Content-Length:\r\n",
            "Content-Length: 99999999999999999999\r\n",
            `Content-Length: ${body.length}\r\nContent-Length: ${body.length + 1}\r\n`,
            `Content-Length: ${body.length}\r\nContent-Length: ${body.length}\r\n`,
            `Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n`,
            `Transfer-Encoding: chunked\r\nContent-Length: ${body.length}\r\n`,
          ).map((headers) => ({ headers, body })),
        },
        { weight: 5, arbitrary: chunked(body) },
        {
          weight: 1,
          arbitrary: pick(
            "Transfer-Encoding: gzip\r\n",
            "Transfer-Encoding: chunked, gzip\r\n",
            "Transfer-Encoding: chunkedx\r\n",
            "Transfer-Encoding: chunked \t \r\n",
          ).map((headers) => ({ headers, body })),
        },
        { weight: 2, arbitrary: fc.constant({ headers: "", body }) },
      );

/** A chunked body: chunk sizes, extensions and trailers, well formed or not. */
function chunked(body: string) {
  const size = (n: number) =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(n.toString(16)) },
      {
        weight: 2,
        arbitrary: pick(
          `000${n.toString(16)}`,
          n.toString(16).toUpperCase(),
          `${"0".repeat(20)}${n.toString(16)}`,
        ),
      },
      {
        weight: 1,
        arbitrary: pick(
          `${n.toString(16)} `,
          ` ${n.toString(16)}`,
          `${n.toString(16)}\t`,
          `${n.toString(16)}\u00a0`,
          `0x${n.toString(16)}`,
          "",
          "10000000000000000",
        ),
      },
    );
  const ext = fc.oneof(
    { weight: 8, arbitrary: fc.constant("") },
    { weight: 2, arbitrary: pick(";a=b", ";a", ';a="b c"', ";a=b;c", ";;b", ';a="x\\"y"') },
    {
      weight: 1,
      arbitrary: pick(";", " ;a=b", "; a=b", ";a=b c", ";a=\u0001", ';a="b"x', ";a=b;", ";a\u00e9"),
    },
  );
  const trailer = fc.oneof(
    { weight: 6, arbitrary: fc.constant("") },
    { weight: 2, arbitrary: pick("X-T: 1\r\n", "X-T: 1\r\nX-U:\r\n") },
    {
      weight: 1,
      arbitrary: pick("X(T: 1\r\n", "X-T: \u0000\r\n", "Content-Length: 5\r\n", " X: 1\r\n"),
    },
  );
  return fc
    .tuple(
      fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 }),
      fc.array(ext, { minLength: 5, maxLength: 5 }),
      size(0),
      trailer,
      pick("\r\n", "\r\n", "\r\n", "\n", "X"),
      fc.constantFrom(...[0, 1, 2, 3, 4].map((k) => k)),
    )
    .chain(([sizes, exts, last, trailers, afterData, which]) => {
      const parts: string[] = [];
      let at = 0;
      let k = 0;
      const sizeArbs: fc.Arbitrary<string>[] = [];
      const pieces: string[] = [];
      while (at < body.length) {
        const n = Math.min(sizes[k % sizes.length] as number, body.length - at);
        sizeArbs.push(size(n));
        pieces.push(body.slice(at, at + n));
        at += n;
        k++;
      }
      return fc.tuple(...sizeArbs).map((sizeTexts) => {
        pieces.forEach((p, j) => {
          parts.push(
            `${sizeTexts[j]}${exts[j % exts.length]}\r\n${p}${j === which ? afterData : "\r\n"}`,
          );
        });
        parts.push(`${last}${exts[4]}\r\n${trailers}\r\n`);
        return { headers: "Transfer-Encoding: chunked\r\n", body: parts.join("") };
      });
    });
}

const interim = fc.oneof(
  { weight: 8, arbitrary: fc.constant("") },
  {
    weight: 1,
    arbitrary: pick(
      "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n",
      "HTTP/1.1 102 Processing\r\n\r\n",
      "HTTP/1.1 103 Early Hints\r\nContent-Length: 3\r\n\r\n",
      "HTTP/1.1 100 Continue\r\n\r\n",
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    ),
  },
);

export interface AnswerCase {
  /** The request method the answer is for. */
  readonly method: "GET" | "HEAD";
  /** The answer as written, byte for byte (latin1). */
  readonly wire: string;
}

/**
 * One answer: interim answers, a status line, fields, framing, body; whole or cut anywhere. With
 * `ends`, an answer that ends by itself or is refused at once (the middle of a keep-alive sequence).
 */
export const answerCaseOf = (ends: boolean): fc.Arbitrary<AnswerCase> =>
  fc
    .tuple(
      pick<"GET" | "HEAD">("GET", "GET", "GET", "HEAD"),
      interim,
      statusLine,
      fc.array(fc.oneof({ weight: 4, arbitrary: field }, { weight: 1, arbitrary: connection }), {
        maxLength: 4,
      }),
      fc.oneof(
        { weight: 4, arbitrary: pick("", "{}", '{"error":"x","errors":[]}') },
        { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 40 }) },
      ),
      eol,
    )
    .chain(([method, pre, status, fields, body, end]) =>
      fc
        .tuple(
          framing(body, ends),
          ends ? fc.constant(null) : fc.option(fc.integer({ min: 0, max: 400 }), { freq: 6 }),
          fc.nat({ max: fields.length }),
        )
        .map(([frame, cut, at]) => {
          const head = [...fields];
          head.splice(at, 0, frame.headers);
          // An answer that must end by itself ends its head with CRLF (a bare CR waits for its LF).
          const wire = `${pre}${status}${head.join("")}${ends ? "\r\n" : end}${frame.body}`;
          // Cut short now and then (a connection closed inside the answer).
          return { method, wire: cut === null ? wire : wire.slice(0, Math.min(cut, wire.length)) };
        }),
    );

export const answerCase = answerCaseOf(false);

/** Where the answer's bytes are split into separate writes (fractions of its length). */
export const splits = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 });

/** The answer's bytes in writes split at `at` (fractions of its length). */
export function splitWire(wire: Buffer, at: readonly number[]): Buffer[] {
  const points = [...new Set(at.map((f) => Math.floor(f * wire.length)))]
    .filter((p) => p > 0 && p < wire.length)
    .sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    out.push(wire.subarray(from, p));
    from = p;
  }
  out.push(wire.subarray(from));
  return out;
}
