import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AUTHENTICATION_FAILED,
  type ClusteringRules,
  type CreateSchemaRequest,
  type UserPublishRequest,
} from "@idp/contracts";
import { PactV4 } from "@pact-foundation/pact";
import { afterAll, describe, expect, it } from "vitest";
import {
  IdpApiError,
  IdpClient,
  idpInteraction,
  PACT_CONSUMER,
  PACT_FILE,
  PACT_PLACEHOLDER_CREDENTIALS,
  PACT_PROVIDER,
  PACT_WRONG_CREDENTIALS,
} from "../src/index.ts";
import {
  exampleClusteringRules,
  exampleCreateSchemaRequest,
  exampleUserPublishRequest,
  invalidExample,
} from "./support/examples.ts";

// Pact's mock server records into a fresh folder; only a complete run (all 12 interactions) is
// copied, byte for byte, over pacts/idp-toolkit-consumer-idp-service.json. A filtered or failed run
// leaves the committed pact alone, and nothing is ever merged into a stale file.
const recordDir = mkdtempSync(join(tmpdir(), "idp-pact-"));
const recordedFile = join(recordDir, `${PACT_CONSUMER}-${PACT_PROVIDER}.json`);
const pact = new PactV4({
  consumer: PACT_CONSUMER,
  provider: PACT_PROVIDER,
  dir: recordDir,
  logLevel: "error",
});

const EXPECTED_INTERACTIONS = 12;
afterAll(() => {
  let recorded = 0;
  try {
    recorded = (JSON.parse(readFileSync(recordedFile, "utf8")) as { interactions: unknown[] })
      .interactions.length;
  } catch {
    recorded = 0;
  }
  if (recorded === EXPECTED_INTERACTIONS) {
    // Atomic replace: readers (test/pact-file.test.ts) see the old file or the new one, never half.
    const staging = `${PACT_FILE}.${process.pid}.tmp`;
    copyFileSync(recordedFile, staging);
    renameSync(staging, PACT_FILE);
  } else
    process.stderr.write(
      `pacts/ left unchanged: ${recorded} of ${EXPECTED_INTERACTIONS} interactions recorded in this run\n`,
    );
  rmSync(recordDir, { recursive: true, force: true });
});

// The interactions are recorded with this package's own builders (src/interactions.ts): method,
// path, credential, provider state, contract-derived matchers and the error body come from there;
// this test gives the examples (generated with fixed seeds) and plays the client against the mock.

// --- clients ---------------------------------------------------------------------------------

function placeholderClient(baseUrl: string): IdpClient {
  return new IdpClient({ baseUrl, ...PACT_PLACEHOLDER_CREDENTIALS, onDeprecation: () => {} });
}
function wrongCredentialsClient(baseUrl: string): IdpClient {
  return new IdpClient({ baseUrl, ...PACT_WRONG_CREDENTIALS, onDeprecation: () => {} });
}

async function expectApiError(promise: Promise<unknown>, status: number): Promise<IdpApiError> {
  const error = await promise.then(
    () => expect.fail(`expected an IdpApiError with status ${status}, but the call succeeded`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IdpApiError);
  const apiError = error as IdpApiError;
  expect(apiError.status).toBe(status);
  expect(typeof apiError.error).toBe("string");
  expect(typeof apiError.error_description).toBe("string");
  expect(Array.isArray(apiError.errors)).toBe(true);
  return apiError;
}

// --- create schema: 201, 400, 401, 422 -------------------------------------------------------

describe("create schema", () => {
  it("201 for a valid schema", async () => {
    const body = exampleCreateSchemaRequest();
    // A provider may refuse a name it already holds (conformance.md §1): the builder's state makes
    // the tenth verification against one database answer like the first.
    await idpInteraction(pact, "createSchema", 201, { body }).executeTest(async (mock) => {
      await expect(placeholderClient(mock.url).createSchema(body)).resolves.toBeUndefined();
    });
  });

  it("400 for a malformed body", async () => {
    const invalid = invalidExample("createSchema", 400);
    await idpInteraction(pact, "createSchema", 400, {
      body: invalid.body,
      comment: `example body: ${invalid.violation}`,
    }).executeTest(async (mock) => {
      const client = placeholderClient(mock.url);
      await expectApiError(client.createSchema(invalid.body as CreateSchemaRequest), 400);
    });
  });

  it("401 for wrong credentials", async () => {
    const body = exampleCreateSchemaRequest();
    await idpInteraction(pact, "createSchema", 401, { body }).executeTest(async (mock) => {
      const error = await expectApiError(wrongCredentialsClient(mock.url).createSchema(body), 401);
      expect(error.error).toBe(AUTHENTICATION_FAILED);
    });
  });

  it("422 for a schema with a field of the wrong type", async () => {
    const invalid = invalidExample("createSchema", 422);
    await idpInteraction(pact, "createSchema", 422, {
      body: invalid.body,
      comment: `example body: ${invalid.violation}`,
    }).executeTest(async (mock) => {
      const client = placeholderClient(mock.url);
      await expectApiError(client.createSchema(invalid.body as CreateSchemaRequest), 422);
    });
  });
});

// --- push to user devices: 200, 400, 401, 403, 404 -------------------------------------------

describe("push to user devices", () => {
  it("200 for a valid notification to a login user", async () => {
    const body = exampleUserPublishRequest();
    await idpInteraction(pact, "pushToUserDevices", 200, { body }).executeTest(async (mock) => {
      const client = placeholderClient(mock.url);
      await expect(client.pushToUserDevices("pact-login-user", body)).resolves.toBeUndefined();
    });
  });

  it("400 for a malformed notification", async () => {
    const invalid = invalidExample("pushToUserDevices", 400);
    // No state: the body is judged before the login user (conformance.md §3).
    await idpInteraction(pact, "pushToUserDevices", 400, {
      body: invalid.body,
      comment: `example body: ${invalid.violation}`,
    }).executeTest(async (mock) => {
      const client = placeholderClient(mock.url);
      const body = invalid.body as UserPublishRequest;
      await expectApiError(client.pushToUserDevices("pact-login-user", body), 400);
    });
  });

  it("401 for wrong credentials", async () => {
    const body = exampleUserPublishRequest();
    // No state: credentials are judged first (conformance.md §3).
    await idpInteraction(pact, "pushToUserDevices", 401, { body }).executeTest(async (mock) => {
      const client = wrongCredentialsClient(mock.url);
      const error = await expectApiError(client.pushToUserDevices("pact-login-user", body), 401);
      expect(error.error).toBe(AUTHENTICATION_FAILED);
    });
  });

  it("403 for a login user of another login app", async () => {
    const body = exampleUserPublishRequest();
    await idpInteraction(pact, "pushToUserDevices", 403, { body }).executeTest(async (mock) => {
      const client = placeholderClient(mock.url);
      await expectApiError(client.pushToUserDevices("pact-other-app-user", body), 403);
    });
  });

  it("404 for an unknown login user", async () => {
    const body = exampleUserPublishRequest();
    await idpInteraction(pact, "pushToUserDevices", 404, { body }).executeTest(async (mock) => {
      const client = placeholderClient(mock.url);
      await expectApiError(client.pushToUserDevices("pact-unknown-user", body), 404);
    });
  });
});

// --- update clustering rules (deprecated): 200, 401, 422 -------------------------------------

describe("update clustering rules", () => {
  it("200 for valid rules", async () => {
    const body = exampleClusteringRules();
    await idpInteraction(pact, "updateClusteringRules", 200, { body }).executeTest(async (mock) => {
      const client = placeholderClient(mock.url);
      await expect(client.updateClusteringRules(body)).resolves.toBeUndefined();
    });
  });

  it("401 for wrong credentials", async () => {
    const body = exampleClusteringRules();
    await idpInteraction(pact, "updateClusteringRules", 401, { body }).executeTest(async (mock) => {
      const client = wrongCredentialsClient(mock.url);
      const error = await expectApiError(client.updateClusteringRules(body), 401);
      expect(error.error).toBe(AUTHENTICATION_FAILED);
    });
  });

  it("422 for malformed rules", async () => {
    const invalid = invalidExample("updateClusteringRules", 422);
    await idpInteraction(pact, "updateClusteringRules", 422, {
      body: invalid.body,
      comment: `example body: ${invalid.violation}`,
    }).executeTest(async (mock) => {
      const client = placeholderClient(mock.url);
      await expectApiError(client.updateClusteringRules(invalid.body as ClusteringRules), 422);
    });
  });
});
