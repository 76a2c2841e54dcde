import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AUTHENTICATION_FAILED,
  type ClusteringRules,
  type CreateSchemaRequest,
  PROVIDER_STATES,
  type UserPublishRequest,
} from "@idp/contracts";
import { MatchersV3, PactV4 } from "@pact-foundation/pact";
import { afterAll, describe, expect, it } from "vitest";
import {
  IdpApiError,
  IdpClient,
  PACT_CONSUMER,
  PACT_FILE,
  PACT_PLACEHOLDER_AUTHORIZATION,
  PACT_PLACEHOLDER_CREDENTIALS,
  PACT_PROVIDER,
  PACT_WRONG_AUTHORIZATION,
  PACT_WRONG_CREDENTIALS,
} from "../src/index.ts";
import {
  exampleClusteringRules,
  exampleCreateSchemaRequest,
  exampleUserPublishRequest,
  invalidExample,
} from "./support/examples.ts";

const { atLeastLike, like, regex } = MatchersV3;

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

// --- matchers --------------------------------------------------------------------------------

/** Any `Basic <base64>` value; the recorded example is the documented placeholder credential. */
const placeholderAuthorization = regex(
  /^Basic [A-Za-z0-9+/]+={0,2}$/,
  PACT_PLACEHOLDER_AUTHORIZATION,
);
const jsonContentType = regex(/^application\/json(;.*)?$/, "application/json");

const validRequestHeaders = {
  Authorization: placeholderAuthorization,
  "Content-Type": "application/json",
};
/** The 401 interactions send this exact wrong credential; a verifier must leave it as it is. */
const wrongRequestHeaders = {
  Authorization: PACT_WRONG_AUTHORIZATION,
  "Content-Type": "application/json",
};

/** R2: `error`, `error_description` (strings) and `errors` (array of strings, possibly empty). */
function errorBody(error: string, description: string, firstError: string) {
  return {
    error: like(error),
    error_description: like(description),
    errors: atLeastLike(like(firstError), 0, 1),
  };
}
/** R1: a 401 answer's `error` is exactly `authentication_failed`. */
function authenticationFailedBody() {
  return {
    error: AUTHENTICATION_FAILED,
    error_description: like("The credentials are not valid"),
    errors: atLeastLike(like("invalid credentials"), 0, 1),
  };
}

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

// --- ids of the provider states (conformance.md §4) --------------------------------------------

const LOGIN_USER_ID = "pact-login-user";
const UNKNOWN_USER_ID = "pact-unknown-user";
const OTHER_APP_USER_ID = "pact-other-app-user";

const SCHEMAS_PATH = "/marketing/datastore/schemas";
const pushPath = (id: string) => `/marketing/push_notifications/login/users/${id}/publish`;
const RULES_PATH = "/marketing/login/apps/clustering/rules";

// --- create schema: 201, 400, 401, 422 -------------------------------------------------------

describe("create schema", () => {
  it("201 for a valid schema", async () => {
    const body = exampleCreateSchemaRequest();
    // A provider may refuse a name it already holds (conformance.md §1): the state makes the tenth
    // verification against one database answer like the first.
    await pact
      .addInteraction()
      .given(PROVIDER_STATES.noSchemaWithName, { name: body.schema.name })
      .uponReceiving("create schema: 201 for a valid schema")
      .withRequest("POST", SCHEMAS_PATH, (b) => b.headers(validRequestHeaders).jsonBody(like(body)))
      .willRespondWith(201)
      .executeTest(async (mock) => {
        await expect(placeholderClient(mock.url).createSchema(body)).resolves.toBeUndefined();
      });
  });

  it("400 for a malformed body", async () => {
    const invalid = invalidExample("createSchema", 400);
    await pact
      .addInteraction()
      .uponReceiving("create schema: 400 for a malformed body")
      .comment(`example body: ${invalid.violation}`)
      .withRequest("POST", SCHEMAS_PATH, (b) =>
        b.headers(validRequestHeaders).jsonBody(like(invalid.body)),
      )
      .willRespondWith(400, (b) =>
        b
          .headers({ "Content-Type": jsonContentType })
          .jsonBody(errorBody("bad_request", "The body is malformed", "schema is not an object")),
      )
      .executeTest(async (mock) => {
        const client = placeholderClient(mock.url);
        await expectApiError(client.createSchema(invalid.body as CreateSchemaRequest), 400);
      });
  });

  it("401 for wrong credentials", async () => {
    const body = exampleCreateSchemaRequest();
    await pact
      .addInteraction()
      .uponReceiving("create schema: 401 for wrong credentials")
      .withRequest("POST", SCHEMAS_PATH, (b) => b.headers(wrongRequestHeaders).jsonBody(like(body)))
      .willRespondWith(401, (b) =>
        b.headers({ "Content-Type": jsonContentType }).jsonBody(authenticationFailedBody()),
      )
      .executeTest(async (mock) => {
        const error = await expectApiError(
          wrongCredentialsClient(mock.url).createSchema(body),
          401,
        );
        expect(error.error).toBe(AUTHENTICATION_FAILED);
      });
  });

  it("422 for a schema with a field of the wrong type", async () => {
    const invalid = invalidExample("createSchema", 422);
    await pact
      .addInteraction()
      .uponReceiving("create schema: 422 for a schema with a field of the wrong type")
      .comment(`example body: ${invalid.violation}`)
      .withRequest("POST", SCHEMAS_PATH, (b) =>
        b.headers(validRequestHeaders).jsonBody(like(invalid.body)),
      )
      .willRespondWith(422, (b) =>
        b
          .headers({ "Content-Type": jsonContentType })
          .jsonBody(errorBody("parameter_error", "A parameter is invalid", "schema.name")),
      )
      .executeTest(async (mock) => {
        const client = placeholderClient(mock.url);
        await expectApiError(client.createSchema(invalid.body as CreateSchemaRequest), 422);
      });
  });
});

// --- push to user devices: 200, 400, 401, 403, 404 -------------------------------------------

describe("push to user devices", () => {
  it("200 for a valid notification to a login user", async () => {
    const body = exampleUserPublishRequest();
    await pact
      .addInteraction()
      .given(PROVIDER_STATES.loginUserExists, { id: LOGIN_USER_ID })
      .uponReceiving("push to user devices: 200 for a valid notification to a login user")
      .withRequest("POST", pushPath(LOGIN_USER_ID), (b) =>
        b.headers(validRequestHeaders).jsonBody(like(body)),
      )
      .willRespondWith(200)
      .executeTest(async (mock) => {
        const client = placeholderClient(mock.url);
        await expect(client.pushToUserDevices(LOGIN_USER_ID, body)).resolves.toBeUndefined();
      });
  });

  it("400 for a malformed notification", async () => {
    const invalid = invalidExample("pushToUserDevices", 400);
    await pact
      .addInteraction()
      // No state: the body is judged before the login user (conformance.md §3).
      .uponReceiving("push to user devices: 400 for a malformed notification")
      .comment(`example body: ${invalid.violation}`)
      .withRequest("POST", pushPath(LOGIN_USER_ID), (b) =>
        b.headers(validRequestHeaders).jsonBody(like(invalid.body)),
      )
      .willRespondWith(400, (b) =>
        b
          .headers({ "Content-Type": jsonContentType })
          .jsonBody(errorBody("bad_request", "The body is malformed", "data.message")),
      )
      .executeTest(async (mock) => {
        const client = placeholderClient(mock.url);
        const body = invalid.body as UserPublishRequest;
        await expectApiError(client.pushToUserDevices(LOGIN_USER_ID, body), 400);
      });
  });

  it("401 for wrong credentials", async () => {
    const body = exampleUserPublishRequest();
    await pact
      .addInteraction()
      // No state: credentials are judged first (conformance.md §3).
      .uponReceiving("push to user devices: 401 for wrong credentials")
      .withRequest("POST", pushPath(LOGIN_USER_ID), (b) =>
        b.headers(wrongRequestHeaders).jsonBody(like(body)),
      )
      .willRespondWith(401, (b) =>
        b.headers({ "Content-Type": jsonContentType }).jsonBody(authenticationFailedBody()),
      )
      .executeTest(async (mock) => {
        const client = wrongCredentialsClient(mock.url);
        const error = await expectApiError(client.pushToUserDevices(LOGIN_USER_ID, body), 401);
        expect(error.error).toBe(AUTHENTICATION_FAILED);
      });
  });

  it("403 for a login user of another login app", async () => {
    const body = exampleUserPublishRequest();
    await pact
      .addInteraction()
      .given(PROVIDER_STATES.loginUserOfAnotherAppExists, { id: OTHER_APP_USER_ID })
      .uponReceiving("push to user devices: 403 for a login user of another login app")
      .withRequest("POST", pushPath(OTHER_APP_USER_ID), (b) =>
        b.headers(validRequestHeaders).jsonBody(like(body)),
      )
      .willRespondWith(403, (b) =>
        b
          .headers({ "Content-Type": jsonContentType })
          .jsonBody(errorBody("forbidden", "The user belongs to another login app", "id")),
      )
      .executeTest(async (mock) => {
        const client = placeholderClient(mock.url);
        await expectApiError(client.pushToUserDevices(OTHER_APP_USER_ID, body), 403);
      });
  });

  it("404 for an unknown login user", async () => {
    const body = exampleUserPublishRequest();
    await pact
      .addInteraction()
      .given(PROVIDER_STATES.noLoginUserExists, { id: UNKNOWN_USER_ID })
      .uponReceiving("push to user devices: 404 for an unknown login user")
      .withRequest("POST", pushPath(UNKNOWN_USER_ID), (b) =>
        b.headers(validRequestHeaders).jsonBody(like(body)),
      )
      .willRespondWith(404, (b) =>
        b
          .headers({ "Content-Type": jsonContentType })
          .jsonBody(errorBody("record_not_found", "Record not found", "id")),
      )
      .executeTest(async (mock) => {
        const client = placeholderClient(mock.url);
        await expectApiError(client.pushToUserDevices(UNKNOWN_USER_ID, body), 404);
      });
  });
});

// --- update clustering rules (deprecated): 200, 401, 422 -------------------------------------

describe("update clustering rules", () => {
  it("200 for valid rules", async () => {
    const body = exampleClusteringRules();
    await pact
      .addInteraction()
      .uponReceiving("update clustering rules: 200 for valid rules")
      .withRequest("PUT", RULES_PATH, (b) => b.headers(validRequestHeaders).jsonBody(like(body)))
      .willRespondWith(200)
      .executeTest(async (mock) => {
        const client = placeholderClient(mock.url);
        await expect(client.updateClusteringRules(body)).resolves.toBeUndefined();
      });
  });

  it("401 for wrong credentials", async () => {
    const body = exampleClusteringRules();
    await pact
      .addInteraction()
      .uponReceiving("update clustering rules: 401 for wrong credentials")
      .withRequest("PUT", RULES_PATH, (b) => b.headers(wrongRequestHeaders).jsonBody(like(body)))
      .willRespondWith(401, (b) =>
        b.headers({ "Content-Type": jsonContentType }).jsonBody(authenticationFailedBody()),
      )
      .executeTest(async (mock) => {
        const client = wrongCredentialsClient(mock.url);
        const error = await expectApiError(client.updateClusteringRules(body), 401);
        expect(error.error).toBe(AUTHENTICATION_FAILED);
      });
  });

  it("422 for malformed rules", async () => {
    const invalid = invalidExample("updateClusteringRules", 422);
    await pact
      .addInteraction()
      .uponReceiving("update clustering rules: 422 for malformed rules")
      .comment(`example body: ${invalid.violation}`)
      .withRequest("PUT", RULES_PATH, (b) =>
        b.headers(validRequestHeaders).jsonBody(like(invalid.body)),
      )
      .willRespondWith(422, (b) =>
        b
          .headers({ "Content-Type": jsonContentType })
          .jsonBody(errorBody("parameter_error", "A parameter is invalid", "rules")),
      )
      .executeTest(async (mock) => {
        const client = placeholderClient(mock.url);
        await expectApiError(client.updateClusteringRules(invalid.body as ClusteringRules), 422);
      });
  });
});
