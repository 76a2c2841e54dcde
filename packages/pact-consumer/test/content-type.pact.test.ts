// The pacts idpInteraction records, verified by Pact's own verifier (pact-js, the Rust core) the way
// a provider team runs it, against a provider written by hand (@idp/fault-providers) that differs
// only in the Content-Type of its JSON answers: RFC 9110 compares the media type case-insensitively
// with any parameters, so the spellings below are the same answer, and text/plain is not.
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { Verifier } from "@pact-foundation/pact";
import { afterEach, describe, expect, it } from "vitest";
import { PACT_FILE, PACT_PLACEHOLDER_CREDENTIALS } from "../src/index.ts";

let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/** Pact's verifier over the committed pact (12 interactions, 9 of them error answers). */
async function verify(jsonContentType: string): Promise<"passed" | "failed"> {
  provider = await startHandProvider({
    credentials: PACT_PLACEHOLDER_CREDENTIALS,
    jsonContentType,
  });
  const verifier = new Verifier({
    providerBaseUrl: provider.baseUrl,
    pactUrls: [PACT_FILE],
    // Pact's state-change protocol, straight to the provider (conformance.md §4).
    providerStatesSetupUrl: provider.statesUrl,
    providerStatesSetupTeardown: true,
    providerStatesSetupBody: true,
    logLevel: "error",
  });
  return verifier.verifyProvider().then(
    () => "passed",
    () => "failed",
  );
}

describe("the Content-Type a pact of idpInteraction expects", () => {
  it.each([
    "application/json",
    "application/json;charset=UTF-8",
    "Application/JSON",
    "Application/JSON;Charset=UTF-8",
  ])("passes Pact's verifier against a provider answering %s", async (type) => {
    expect(await verify(type)).toBe("passed");
  });

  it("still fails it against a provider answering text/plain", async () => {
    expect(await verify("text/plain")).toBe("failed");
  });
});
