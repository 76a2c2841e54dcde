// The pact credentials live in @idp/contracts (so a verifier needs no runtime dependency on this
// package); re-exported here so existing imports keep working.
export {
  basicAuthorization,
  PACT_PLACEHOLDER_AUTHORIZATION,
  PACT_PLACEHOLDER_CREDENTIALS,
  PACT_WRONG_AUTHORIZATION,
  PACT_WRONG_CREDENTIALS,
} from "@idp/contracts";
