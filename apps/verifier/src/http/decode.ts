import * as zlib from "node:zlib";
import type { HttpResponse, HttpResult } from "./send.ts";

// Content codings (conformance.md §9): the verifier sends no Accept-Encoding, so HTTP lets the
// provider choose one; an answer labelled gzip, deflate or br (or zstd, where Node has it) is
// decoded before it is judged, up to the same cap as any body. One whose bytes do not match its
// label is malformed.

/** The code of an answer whose body does not match its Content-Encoding. */
export const E_CONTENT_CODING = "E_CONTENT_CODING";

type Decoder = (
  options: zlib.ZlibOptions & zlib.BrotliOptions,
) => zlib.Gunzip | zlib.BrotliDecompress;

const zstd = (zlib as { createZstdDecompress?: Decoder }).createZstdDecompress;
const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: zlib.createGunzip,
  "x-gzip": zlib.createGunzip,
  // RFC 9110 §8.4.1.2: the zlib format.
  deflate: zlib.createInflate,
  br: zlib.createBrotliDecompress,
  ...(zstd ? { zstd } : {}),
};

/** The codings of a Content-Encoding value, in the order they were applied (`identity` left out). */
export function codingsOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value.join(",") : value)
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
}

/**
 * The answer with its body decoded (its Content-Encoding's codings undone, last first), or a
 * failure naming the coding the bytes do not match. Answers without a coding come back as they are.
 */
export async function decodeAnswer(res: HttpResponse, cap: number): Promise<HttpResult> {
  const codings = codingsOf(res.headers["content-encoding"]);
  if (codings.length === 0) return res;
  let body = res.body;
  let truncated = res.truncated;
  for (const coding of [...codings].reverse()) {
    const decoder = DECODERS[coding];
    const failure = (why: string) => ({
      kind: "transport-error" as const,
      code: E_CONTENT_CODING,
      message: why,
      durationMs: res.durationMs,
      answered: { status: res.status, coding },
    });
    if (!decoder)
      return failure(`the body is labelled ${coding}, a content coding the verifier cannot decode`);
    const out = await inflate(decoder, body, cap, truncated);
    if ("error" in out)
      return failure(`the body is labelled ${coding} but is not valid ${coding} (${out.error})`);
    body = out.body;
    truncated = truncated || out.truncated;
  }
  return { ...res, body, truncated, decoded: codings.join(", ") };
}

/** Undoes one coding, keeping at most `cap` bytes (a small body may decode to a huge one). */
function inflate(
  decoder: Decoder,
  input: Buffer,
  cap: number,
  partial: boolean,
): Promise<{ body: Buffer; truncated: boolean } | { error: string }> {
  return new Promise((resolve) => {
    // A body cut at the cap is decoded as far as it goes.
    const z = decoder(
      partial
        ? { finishFlush: zlib.constants.Z_SYNC_FLUSH, flush: zlib.constants.BROTLI_OPERATION_FLUSH }
        : {},
    );
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: { body: Buffer; truncated: boolean } | { error: string }) => {
      if (done) return;
      done = true;
      resolve(r);
    };
    z.on("data", (chunk: Buffer) => {
      if (done) return;
      if (size + chunk.length > cap) {
        chunks.push(chunk.subarray(0, cap - size));
        z.destroy();
        finish({ body: Buffer.concat(chunks, cap), truncated: true });
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    z.on("end", () => finish({ body: Buffer.concat(chunks, size), truncated: false }));
    z.on("error", (e: Error) =>
      partial
        ? finish({ body: Buffer.concat(chunks, size), truncated: true })
        : finish({ error: e.message }),
    );
    z.end(input);
  });
}
