import fc from "fast-check";
import type { GenOptions } from "./gen-args.ts";
import { invalidBodyArb } from "./invalid-body.ts";
import { stressBodyArb } from "./stress-body.ts";
import { largeValidBodyArb, validBodyArb } from "./valid-body.ts";

// fc.sample holds its whole run in memory, so long runs are drawn in chunks with derived seeds.
// Chunk 0 uses the seed itself: the first lines equal fc.sample(arb, { seed, numRuns }). Stress
// bodies reach 1 MiB each, so their chunks are small.
const CHUNK: Readonly<Record<GenOptions["mode"], number>> = {
  valid: 1000,
  invalid: 1000,
  stress: 20,
};

function lineArb(options: GenOptions): fc.Arbitrary<unknown> {
  const { operation, profile } = options;
  switch (options.mode) {
    case "valid": {
      const { size, maxLength, maxBodyBytes } = options.valid;
      if (size === "huge")
        return largeValidBodyArb(operation, {
          profile,
          ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
        });
      return validBodyArb(operation, {
        profile,
        ...(maxLength === undefined ? {} : { maxLength }),
        ...(size === undefined ? {} : { size }),
      });
    }
    case "invalid":
      return invalidBodyArb(operation, { profile }).map((c) => ({
        body: c.body,
        raw: c.raw,
        expectedStatus: c.expectedStatus,
        violation: c.violation,
        kind: c.kind,
        path: c.path,
        ...(c.bound === undefined ? {} : { bound: c.bound }),
      }));
    case "stress":
      // The body is the exact text as a JSON string: re-serialising it would lose -0, 1e400 and
      // its escapes, and many JSON tools refuse to parse 10,000 levels.
      return stressBodyArb(operation, { profile, ...options.stress }).map((c) => ({
        body: c.text,
        raw: true,
        stress: c.kind,
        place: c.place,
        expected: c.expected,
        path: c.path,
        size: c.size,
        description: c.description,
      }));
  }
}

/** The NDJSON lines of `idp-gen`, lazily: the same options always give the same lines. */
export function* genLines(options: GenOptions): Generator<string> {
  const arb = lineArb(options);
  const chunk = options.valid.size === "huge" ? CHUNK.stress : CHUNK[options.mode];
  for (let done = 0, n = 0; done < options.count; n++) {
    const numRuns = Math.min(chunk, options.count - done);
    const seed = n === 0 ? options.seed : (options.seed ^ Math.imul(n, 0x9e3779b1)) | 0;
    for (const value of fc.sample(arb, { seed, numRuns })) yield JSON.stringify(value);
    done += numRuns;
  }
}
