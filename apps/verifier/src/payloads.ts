// Request bodies for the conformance checks come from @idp/generators. The verifier's oracle stays
// @idp/contracts' classifyRequestBody on the exact text sent (see checks.ts), so a generator and the
// verifier can never disagree silently about what a body is.
export { type InvalidBodyCase, invalidBodyArb, validBodyArb } from "@idp/generators";

/** The text sent for a body: raw text as is, anything else as JSON. */
export const bodyText = (c: { readonly body: unknown; readonly raw: boolean }): string =>
  c.raw ? String(c.body) : JSON.stringify(c.body);
