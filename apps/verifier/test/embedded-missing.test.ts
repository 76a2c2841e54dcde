import { describe, expect, it } from "vitest";
import { NO_EMBEDDED_PROVIDER, startEmbeddedProvider } from "../src/embedded.ts";
import { describeError, VerifyError } from "../src/errors.ts";

// Node's own shape for these failures (the packed-install smoke test, scripts/pack-smoke.mjs,
// meets the real one).
const nodeError = (message: string) =>
  Object.assign(new Error(message), { code: "ERR_MODULE_NOT_FOUND" });
const ignore = () => {};

describe("startEmbeddedProvider when @idp/provider cannot be loaded", () => {
  it("should say in one line that --provider-url is needed when @idp/provider is not installed", async () => {
    // Arrange
    const load = () =>
      Promise.reject(
        nodeError(
          "Cannot find package '@idp/provider' imported from /app/node_modules/@idp/verifier/dist/run.mjs",
        ),
      );
    // Act
    const error = await startEmbeddedProvider(ignore, load).catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(VerifyError);
    expect((error as VerifyError).code).toBe("E_EMBEDDED_PROVIDER");
    expect((error as VerifyError).message).toBe(NO_EMBEDDED_PROVIDER);
    expect(describeError(error)).toMatch(/^idp-verify: E_EMBEDDED_PROVIDER: .*--provider-url URL/);
    expect(describeError(error)).not.toContain("\n");
  });

  it("should ask for a build when @idp/provider is present but unbuilt", async () => {
    // Arrange
    const load = () =>
      Promise.reject(nodeError("Cannot find module '/repo/apps/provider/dist/index.mjs'"));
    // Act
    const error = await startEmbeddedProvider(ignore, load).catch((e: unknown) => e);
    // Assert
    expect((error as VerifyError).code).toBe("E_EMBEDDED_PROVIDER");
    expect((error as VerifyError).message).toMatch(/pnpm --filter @idp\/provider build/);
  });
});
