// Each fault breaks exactly one behaviour of a conforming provider; the comment names the rule of
// conformance.md §1 a verifier should report (or, for the transport ones, what it must survive).

/** Every fault {@link startHandProvider} can switch on. */
export const FAULTS = [
  // --- issue 10 ---
  /** A valid create schema whose `schema.name` is `""` answers 500 (R4, R6). Names are any strings (§2). */
  "crash-on-empty-name",
  /**
   * The body is judged before the credentials: a malformed or invalid body gets its 400/422 even
   * without or with bad credentials (R1: credentials first, whatever the body). A valid body with
   * bad credentials still gets 401.
   */
  "body-before-credentials",
  /** Any body of the three operations nested 600 levels or deeper answers 500, like a recursive parser (R6). */
  "crash-on-deep-nesting",
  /** Create schema answers 422 where §3 pins 400, and 400 where it pins 422 (R5). */
  "swap-400-422",
  /**
   * Echoes the received Authorization value and the user:password it decodes to: in
   * `error_description` and `errors` of every error body, and in the `x-echo-authorization` and
   * `x-echo-credentials` headers of every answer. Breaks no rule of §1: it tests that the verifier's
   * output never holds a credential (§5).
   */
  "echo-authorization",
  /**
   * Every answer of the three operations carries a body of `bigBodyBytes` (512 MiB), streamed lazily,
   * with the right status and Content-Length (R8 on successes). Tests the verifier's body cap.
   */
  "big-body",
  // --- the verifier's original fake provider ---
  /** A valid create schema answers 202 instead of 201 (R3, R4). */
  "wrong-status",
  /** Every 422 has Content-Type text/plain and no `errors` (R2). */
  "broken-error-body",
  /** Any Authorization, or none, is accepted (R1). */
  "auth-ignored",
  /** 401 answers carry `error: "unauthorized"` instead of `authentication_failed` (R1). */
  "auth-wrong-error",
  /** Every malformed or invalid clustering-rules body answers 200 (R5). */
  "invalid-accepted",
  /** A malformed or invalid push body answers 404: documented for push, but §3 pins 400 (R5). */
  "other-4xx",
  /** A valid push whose `data.title` is `""` answers 500 (R4, R6). */
  "crash-on-valid",
  /** Push to an unknown user or a user of another login app answers 200 (R7). */
  "no-404-403",
  /** A successful create schema answers 201 with a JSON body (R8). */
  "body-on-success",
  /** `Authorization: Basic <text that is not base64>` answers 500 (R1, R6). */
  "bad-base64-crash",
  // --- added: bugs real providers have, that only some generated inputs reveal ---
  /** Accepts any password that starts with the right one (a comparison cut at the stored length) (R1). */
  "password-prefix",
  /** Compares the username case-insensitively (R1). */
  "username-case-insensitive",
  /** A valid push whose `badge` or `vibrate_duration` is outside the 32-bit range answers 500 (R4, R6). */
  "crash-on-large-integer",
  /** A valid body with a tabulated string of 65,536 UTF-16 units or more answers 500 (R4, R6). */
  "crash-on-long-string",
  /** A valid body with a tabulated string holding a character outside the BMP (e.g. an emoji) answers 500, like a utf8mb3 column (R4, R6). */
  "crash-on-astral",
  /** A valid body with a key the spec does not tabulate (anywhere) answers 500, unknown keys being allowed (R4, R6). */
  "crash-on-unknown-key",
  /** A valid create schema whose `schema.fields` is `[]` is refused with 422; arrays may be empty (§2) (R4). */
  "reject-empty-fields",
  /** The state-change endpoint answers 200 but changes nothing: no login user is ever created (R4 and R7 on push). */
  "states-ignored",
  /** A valid create schema answers 201 and stores nothing: the write is acknowledged and lost (R9). */
  "lost-create",
  /** A valid create schema stores only its first field (R9). */
  "first-field-only",
  /** A rules update stores every classifier threshold rounded to one decimal (R9). */
  "rounded-thresholds",
  /** GET of the clustering rules answers 404 even after an update (R9; the restore warns). */
  "rules-get-404",
  // --- issue 29: quiet breaks that passed every seed ---
  /**
   * Credentials split with `decoded.split(":")` and destructuring (`const [user, password] = ...`):
   * `user:password:anything` is accepted, and a password holding a colon never is (R1: the
   * password ends at the end, RFC 7617 splits at the first colon).
   */
  "split-credentials",
  /** The password is compared trimmed: `"password "` and `" password"` are accepted (R1). */
  "trimmed-password",
  /**
   * 400 and 422 answers echo the request body in their `error_description` and are written in
   * ISO-8859-1 (a servlet's default; `?` for what it cannot hold) as `application/json`: bytes that
   * are not UTF-8 whenever the request held Latin-1 letters (R2, RFC 8259 §8.1).
   */
  "latin1-error-bodies",
  /** Every error body is labelled `Content-Encoding: gzip` but sent as plain JSON (R6: malformed; R2). */
  "wrong-content-coding",
] as const;

/** A fault of {@link FAULTS}. */
export type Fault = (typeof FAULTS)[number];

/** Whether `name` is one of {@link FAULTS} (for names read from flags or the environment). */
export function isFault(name: string): name is Fault {
  return (FAULTS as readonly string[]).includes(name);
}
