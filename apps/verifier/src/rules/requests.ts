import {
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  detailedOperations,
  type Neighbour,
  neighbourPath,
  operationPath,
} from "@idp/contracts";
import {
  GeneratorError,
  type InvalidBodyCase,
  invalidBodyArb,
  invalidBodyExamples,
  largeValidBodyArb,
  requestBodyText,
  type StressBodyCase,
  stressBodyArb,
  validBodyArb,
} from "@idp/generators";
import fc from "fast-check";
import type { OutgoingRequest } from "../http/exchange.ts";
import {
  AUTH_VARIANTS,
  type AuthSpec,
  authVariantArb,
  type Credentials,
  validAuth,
} from "./auth.ts";
import { bodyBytes } from "./body-bytes.ts";
import { checkSeed } from "./check-seed.ts";
import type { Case, RuleContext, SentBody } from "./types.ts";

// Request bodies come from @idp/generators and are sent exactly as generated: edge values (an empty
// schema name, a 10,000-deep array) exist to reach the provider. The oracles that judge the answers
// are @idp/contracts' judges, never the generators' own labels.

/**
 * Arbitraries are immutable: each is built once per profile and kind and shared by every check
 * that sends such bodies (the stressed ones take ~6 ms to build per operation, and R1's six
 * checks, R2, R3, R6 and R4 all send them).
 */
const built = new WeakMap<object, Map<string, unknown>>();
function once<T>(profile: object, key: string, build: () => T): T {
  let byKey = built.get(profile);
  if (!byKey) {
    byKey = new Map();
    built.set(profile, byKey);
  }
  if (!byKey.has(key)) byKey.set(key, build());
  return byKey.get(key) as T;
}

/** Push path ids as generated (checks that run in a provider state use their batch's id instead). */
export const pathIdArb = fc.stringMatching(/^[A-Za-z0-9_-]{1,16}$/);

export function validBody(op: DetailedOperationId, ctx: RuleContext): fc.Arbitrary<SentBody> {
  return once(ctx.profile, `valid ${op}`, () =>
    validBodyArb(op, { profile: ctx.profile, maxLength: 5 }).map((body) => ({
      text: JSON.stringify(body),
      kind: "valid" as const,
      note: "a valid body",
    })),
  );
}

/** The seed of the valid body an example is sent with (every run the same, whatever --seed). */
const EXAMPLE_BODY_SEED = 29;

/** One valid body of an operation, the same every run: what examples about credentials send. */
export function exampleValidBody(op: DetailedOperationId, ctx: RuleContext): SentBody {
  return once(ctx.profile, `example ${op}`, () => {
    const [body] = fc.sample(validBody(op, ctx), { seed: EXAMPLE_BODY_SEED, numRuns: 1 });
    if (!body) throw new Error(`no valid ${op} body to send (a bug)`);
    return body;
  });
}

/**
 * Valid bodies at every size, for R4: nine in ten small (at most 5 items per container), one in ten
 * large (long strings in every string and key, or many items; up to 1 MiB), so R4 holds large bodies
 * to a success too (conformance.md §2 knows no bounds; a profile's `bounds` keep both within its
 * own). The other checks' mixes keep small valid bodies: their large bodies are the stressed ones.
 */
export function validBodyAtEverySize(
  op: DetailedOperationId,
  ctx: RuleContext,
): fc.Arbitrary<SentBody> {
  return once(ctx.profile, `every size ${op}`, () => {
    const large = largeValidBodyArb(op, { profile: ctx.profile }).map((body) => {
      const text = JSON.stringify(body);
      return {
        text,
        kind: "valid" as const,
        note: `a large valid body (${Buffer.byteLength(text)} bytes)`,
      };
    });
    return fc.oneof({ weight: 9, arbitrary: validBody(op, ctx) }, { weight: 1, arbitrary: large });
  });
}

/** A stressed body: its pieces, and its text only if something reads it (a failure, a judge). */
const stressSent = (c: StressBodyCase): SentBody => ({
  get text() {
    return c.text;
  },
  pieces: c.pieces,
  byteLength: c.bytes,
  kind: "stress" as const,
  note: c.description,
});

/**
 * The stress kinds R4 holds to a success. Not deep nesting or extreme numbers: RFC 8259 §9 lets a
 * JSON reader limit the depth of nesting and the range of numbers (Jackson and Python stop near
 * 1,000 levels; 1e400 is no double), so those stay R6's (no 5xx) and R3's (a documented status).
 */
const R4_STRESS_KINDS = ["long-string", "unicode", "many-keys", "large-array"] as const;

/** Stressed bodies a conforming provider must accept (expected `valid`): R4's share of the stress. */
export function stressedValidBody(
  op: DetailedOperationId,
  ctx: RuleContext,
): fc.Arbitrary<SentBody> | undefined {
  return once(ctx.profile, `stressed valid ${op}`, () => {
    try {
      return stressBodyArb(op, {
        profile: ctx.profile,
        onlyValid: true,
        kinds: R4_STRESS_KINDS,
      }).map(stressSent);
    } catch (e) {
      // A profile whose bounds cover every place leaves no stressed body valid: none to send.
      if (e instanceof GeneratorError) return undefined;
      throw e;
    }
  });
}

const invalidSent = (c: InvalidBodyCase): SentBody => ({
  text: requestBodyText(c),
  kind: "invalid" as const,
  note: c.violation,
});

export function invalidBody(op: DetailedOperationId, ctx: RuleContext): fc.Arbitrary<SentBody> {
  return once(ctx.profile, `invalid ${op}`, () =>
    invalidBodyArb(op, { profile: ctx.profile }).map(invalidSent),
  );
}

/** Every wrong type at every field, once, and each non-object body and wrapper (R5 sends these first). */
export function invalidExamples(op: DetailedOperationId, ctx: RuleContext): SentBody[] {
  return invalidBodyExamples(op, { profile: ctx.profile }).map(invalidSent);
}

export function stressBody(op: DetailedOperationId, ctx: RuleContext): fc.Arbitrary<SentBody> {
  return once(ctx.profile, `stress ${op}`, () =>
    stressBodyArb(op, { profile: ctx.profile }).map(stressSent),
  );
}

/** The most bodies of R1's shared pool, per operation. */
const R1_POOL = 256;

/**
 * R1's bodies: one pool per operation (every kind: valid, invalid, not JSON, stressed), drawn from
 * the run's seed and shared by R1's six checks, which differ only in the credentials they send.
 * A stressed body costs up to a millisecond to build; six checks drawing their own would build it
 * six times. Sorted by length, so shrinking the index finds the shortest body that still fails.
 * The same --seed and --runs give the same pool, so a replay sends the same requests.
 */
export function sharedAnyBody(op: DetailedOperationId, ctx: RuleContext): fc.Arbitrary<SentBody> {
  return once(ctx.profile, `r1 pool ${op} ${ctx.seed} ${ctx.runs}`, () => {
    const size = Math.min(R1_POOL, ctx.runs);
    // Drawn when first used: the thread that sends builds this arbitrary only to shrink with it
    // when the case thread generates (engine/case-feed.ts).
    let pool: SentBody[] | undefined;
    const drawn = () => {
      pool ??= fc
        .sample(anyBody(op, ctx), {
          // The run's seed mixed with the pool's name, as each check's own seed is.
          seed: checkSeed(ctx.seed, `R1 pool ${op}`),
          numRuns: size,
        })
        .sort((a, b) => lengthOf(a) - lengthOf(b));
      return pool;
    };
    return fc.noBias(fc.integer({ min: 0, max: size - 1 })).map((i) => drawn()[i] as SentBody);
  });
}

/** A body's length in UTF-16 units, from its pieces when it has them (never joined to be measured). */
const lengthOf = (b: SentBody) =>
  b.pieces ? b.pieces.reduce((n, piece) => n + piece.length, 0) : b.text.length;

/** Any body an operation can get: valid, invalid, not JSON, structurally stressed. */
export function anyBody(op: DetailedOperationId, ctx: RuleContext): fc.Arbitrary<SentBody> {
  return fc.oneof(
    { weight: 3, arbitrary: validBody(op, ctx) },
    { weight: 3, arbitrary: invalidBody(op, ctx) },
    { weight: 1, arbitrary: stressBody(op, ctx) },
  );
}

export function caseArb(
  op: DetailedOperationId,
  body: fc.Arbitrary<SentBody>,
  auth: fc.Arbitrary<AuthSpec>,
): fc.Arbitrary<Case> {
  const needsId = detailedOperations[op].pathParameters.length > 0;
  return needsId
    ? fc.record({ operation: fc.constant(op), pathId: pathIdArb, body, auth })
    : fc.record({ operation: fc.constant(op), body, auth });
}

/** One fixed case with good credentials (an example, sent as it is). */
export function toCase(op: DetailedOperationId, body: SentBody, ctx: RuleContext): Case {
  const needsId = detailedOperations[op].pathParameters.length > 0;
  return {
    operation: op,
    ...(needsId ? { pathId: "example" } : {}),
    body,
    auth: validAuth(ctx.credentials),
  };
}

export const goodAuth = (ctx: RuleContext): fc.Arbitrary<AuthSpec> =>
  fc.constant(validAuth(ctx.credentials));

export const badAuth = (ctx: RuleContext): fc.Arbitrary<AuthSpec> =>
  fc.oneof(...AUTH_VARIANTS.map((v) => authVariantArb(v, ctx.credentials, ctx.secrets)));

/**
 * Valid, invalid and stressed bodies with good credentials, and any body without: R2, R3, R6.
 * `stressWeight` is how many shares of the cases are stressed (of 3 + stressWeight).
 */
export function mixedCases(ctx: RuleContext, stressWeight = 1): fc.Arbitrary<Case> {
  return fc.oneof(
    ...DETAILED_OPERATION_IDS.flatMap((op) => [
      { weight: 1, arbitrary: caseArb(op, validBody(op, ctx), goodAuth(ctx)) },
      { weight: 1, arbitrary: caseArb(op, invalidBody(op, ctx), goodAuth(ctx)) },
      { weight: stressWeight, arbitrary: caseArb(op, stressBody(op, ctx), goodAuth(ctx)) },
      { weight: 1, arbitrary: caseArb(op, anyBody(op, ctx), badAuth(ctx)) },
    ]),
  );
}

/** The request of a case; `stateId` replaces the generated path id inside a provider state. */
export function toRequest(ctx: RuleContext, c: Case, stateId?: string): OutgoingRequest {
  const op = detailedOperations[c.operation];
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json",
  };
  if (c.auth.header !== undefined) headers.authorization = c.auth.header;
  const id = stateId ?? c.pathId;
  const body = c.body;
  const encoded = bodyBytes(body);
  return {
    operation: c.operation,
    method: op.method,
    origin: ctx.origin,
    path: `${ctx.basePath}${operationPath(op, id === undefined ? {} : { id })}`,
    headers,
    // Read only by what records the request (a failure, --har, --cleanup's creates): an encoded
    // body is sent as its bytes, and its text decoded only then.
    get body() {
      return body.text;
    },
    ...(encoded ? { encoded } : {}),
    credentials: c.auth.description,
    curlAuth: c.auth.curlAuth,
  };
}

/**
 * A neighbour operation's request (conformance.md §8) with good credentials: the profile's method
 * and path, `{name}` percent-encoded as one segment, no body.
 */
export function neighbourRequest(
  base: { readonly origin: string; readonly basePath: string },
  credentials: Credentials,
  neighbour: Neighbour,
  schemaName?: string,
  body?: string,
): OutgoingRequest {
  const auth = validAuth(credentials);
  return {
    method: neighbour.method,
    origin: base.origin,
    path: `${base.basePath}${neighbourPath(neighbour, schemaName)}`,
    headers: {
      accept: "application/json",
      authorization: auth.header as string,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body }),
    credentials: auth.description,
    curlAuth: auth.curlAuth,
  };
}
