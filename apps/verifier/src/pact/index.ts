export { type InteractionOutcome, type PactOutcome, parseFfiResults } from "./ffi-results.ts";
export { loadPacts, type PactFile, type PactInteraction, parsePact } from "./files.ts";
export { PACT_PREFIX, pactCheckId } from "./ids.ts";
export { type PactRun, verifyPacts } from "./verify-pacts.ts";
