import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  detailedOperations,
  operationPath,
  PACT_PLACEHOLDER_AUTHORIZATION,
  PACT_WRONG_AUTHORIZATION,
  PROVIDER_STATES,
} from "@idp/contracts";
import { PactV4 } from "@pact-foundation/pact";
import { afterAll, describe, expect, it } from "vitest";
import {
  EXAMPLE_CLUSTERING_RULES,
  EXAMPLE_CREATE_SCHEMA,
  EXAMPLE_PUSH,
  IDP_CELLS,
  IdpInteractionError,
  INVALID_EXAMPLES,
  idpInteraction,
} from "../src/index.ts";

const VALID_EXAMPLES_FOR_TESTS = {
  createSchema: EXAMPLE_CREATE_SCHEMA,
  pushToUserDevices: EXAMPLE_PUSH,
  updateClusteringRules: EXAMPLE_CLUSTERING_RULES,
};

const dir = mkdtempSync(join(tmpdir(), "idp-builders-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const newPact = (consumer: string) =>
  new PactV4({ consumer, provider: "idp-service", dir, logLevel: "error" });

/** Sends what a consumer's own fetch client would, and returns the mock server's status. */
async function send(
  url: string,
  op: DetailedOperationId,
  body: unknown,
  authorization: string,
  id = "pact-login-user",
): Promise<number> {
  const o = detailedOperations[op];
  const res = await fetch(`${url}${operationPath(o, { id })}`, {
    method: o.method,
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

const DEFAULT_ID: Record<number, string> = { 403: "pact-other-app-user", 404: "pact-unknown-user" };

describe("idpInteraction: one builder per documented client cell", () => {
  it("records all 12 cells with their defaults, each answered by the mock as documented", async () => {
    const pact = newPact("builders-defaults");
    let cells = 0;
    for (const op of DETAILED_OPERATION_IDS)
      for (const status of IDP_CELLS[op] as readonly number[]) {
        cells++;
        const invalid = status === 400 || status === 422;
        const body = invalid
          ? (INVALID_EXAMPLES[op] as Record<number, unknown>)[status]
          : VALID_EXAMPLES_FOR_TESTS[op];
        const auth = status === 401 ? PACT_WRONG_AUTHORIZATION : "Basic dXNlcjpwYXNz";
        await idpInteraction(pact, op, status as never).executeTest(async (mock) => {
          expect(await send(mock.url, op, body, auth, DEFAULT_ID[status])).toBe(status);
        });
      }
    expect(cells).toBe(12);
    const file = JSON.parse(readFileSync(join(dir, "builders-defaults-idp-service.json"), "utf8"));
    const byDescription = new Map(
      (file.interactions as { description: string }[]).map((i) => [i.description, i]),
    );
    expect(byDescription.size).toBe(12);
    const push404 = byDescription.get(
      "push to user devices: 404 for an unknown login user",
    ) as unknown as {
      providerStates: { name: string; params: unknown }[];
      request: { headers: Record<string, string[]>; path: string };
    };
    expect(push404.providerStates).toEqual([
      { name: PROVIDER_STATES.noLoginUserExists, params: { id: "pact-unknown-user" } },
    ]);
    expect(push404.request.path).toBe(
      "/marketing/push_notifications/login/users/pact-unknown-user/publish",
    );
    // One Content-Type header (pact-js's jsonBody sets it), the placeholder credential.
    expect(Object.keys(push404.request.headers).sort()).toEqual(["Authorization", "Content-Type"]);
    expect(push404.request.headers.Authorization).toEqual([PACT_PLACEHOLDER_AUTHORIZATION]);
  });

  it("makes the mock server refuse a client that sends a fraction where the contract has an integer", async () => {
    const pact = newPact("builders-integer");
    const buggy = { data: { ...EXAMPLE_PUSH.data, vibrate_duration: 12.5 } };
    const outcome = await idpInteraction(pact, "pushToUserDevices", 200)
      .executeTest(async (mock) => {
        await send(mock.url, "pushToUserDevices", buggy, "Basic dXNlcjpwYXNz");
      })
      .then(
        () => "passed",
        (e: unknown) => String((e as Error).message),
      );
    expect(outcome).not.toBe("passed");
  });

  it("matches the features map by its values, whatever the feature names", async () => {
    const pact = newPact("builders-map");
    const feature = EXAMPLE_CLUSTERING_RULES.rules.features.sports as NonNullable<
      (typeof EXAMPLE_CLUSTERING_RULES.rules.features)[string]
    >;
    const renamed = {
      rules: { ...EXAMPLE_CLUSTERING_RULES.rules, features: { a: feature, b: feature } },
    };
    await idpInteraction(pact, "updateClusteringRules", 200).executeTest(async (mock) => {
      expect(await send(mock.url, "updateClusteringRules", renamed, "Basic dXNlcjpwYXNz")).toBe(
        200,
      );
    });
    const stringThreshold = {
      rules: {
        ...EXAMPLE_CLUSTERING_RULES.rules,
        features: { a: { ...feature, classifier: { ...feature.classifier, threshold: "0.5" } } },
      },
    };
    const outcome = await idpInteraction(pact, "updateClusteringRules", 200, {
      description: "rules with a string threshold",
    })
      .executeTest(async (mock) => {
        await send(mock.url, "updateClusteringRules", stringThreshold, "Basic dXNlcjpwYXNz");
      })
      .then(
        () => "passed",
        () => "refused",
      );
    expect(outcome).toBe("refused");
  });
});

describe("idpInteraction refuses, when the test is written", () => {
  const pact = newPact("builders-refused");
  const refused = (build: () => unknown): string => {
    try {
      build();
    } catch (e) {
      expect(e).toBeInstanceOf(IdpInteractionError);
      const message = (e as Error).message;
      expect(message).not.toContain("\n");
      return message;
    }
    throw new Error("expected IdpInteractionError");
  };

  it("a 2xx example the contract does not call valid, naming the field, the value and the rule", () => {
    const body = { data: { ...EXAMPLE_PUSH.data, vibrate_duration: 12.5 } };
    const message = refused(() => idpInteraction(pact, "pushToUserDevices", 200, { body }));
    expect(message).toContain("pushToUserDevices 200 interaction");
    expect(message).toContain("data.vibrate_duration");
    expect(message).toContain("received 12.5");
    expect(message).toContain("rule: every tabulated field has its tabulated JSON type");
  });

  it("a 403 or 404 example with a missing field (the body is judged before the login user)", () => {
    const { title: _t, ...data } = EXAMPLE_PUSH.data;
    expect(
      refused(() => idpInteraction(pact, "pushToUserDevices", 404, { body: { data } as never })),
    ).toContain("data.title");
  });

  it("a 4xx example the profile maps to another status, or to none", () => {
    expect(
      refused(() =>
        idpInteraction(pact, "createSchema", 400, {
          body: INVALID_EXAMPLES.createSchema[422],
        }),
      ),
    ).toBe(
      "createSchema 400 interaction: received an example body a conforming provider answers 422 (at schema.name: received 42 (an integer); the contract expects a string); expected one the profile default maps to 400",
    );
    expect(
      refused(() =>
        idpInteraction(pact, "createSchema", 422, { body: VALID_EXAMPLES_FOR_TESTS.createSchema }),
      ),
    ).toBe(
      "createSchema 422 interaction: received an example body a conforming provider must accept; expected one the profile default maps to 422",
    );
    const { permissions: _p, ...partial } = EXAMPLE_CREATE_SCHEMA.schema;
    expect(
      refused(() => idpInteraction(pact, "createSchema", 422, { body: { schema: partial } })),
    ).toBe(
      "createSchema 422 interaction: received an example body the spec leaves open: a provider may accept it (at schema.permissions: received absent; the contract expects present (the spec tabulates this field)); expected one the profile default maps to 422",
    );
  });

  it("a 401 error body whose error is not authentication_failed (R1)", () => {
    expect(
      refused(() =>
        idpInteraction(pact, "createSchema", 401, {
          errorBody: { error: "unauthorized", error_description: "no", errors: [] },
        }),
      ),
    ).toBe(
      'createSchema 401 interaction: received errorBody.error "unauthorized"; expected "authentication_failed" (R1: a 401\'s error)',
    );
  });

  it("an example Pact's core cannot carry unchanged", () => {
    const body = { data: { ...EXAMPLE_PUSH.data, badge: 2 ** 60 } };
    expect(refused(() => idpInteraction(pact, "pushToUserDevices", 200, { body }))).toContain(
      "beyond 2^53",
    );
  });

  it("a header the builder owns, in any case", () => {
    expect(
      refused(() =>
        idpInteraction(pact, "updateClusteringRules", 200, {
          headers: { "content-type": "application/json" },
        }),
      ),
    ).toContain(
      "received header content-type, which the builder sets itself (pact-js would record both); expected other headers only",
    );
  });

  it("a cell the operation does not document", () => {
    expect(refused(() => idpInteraction(pact, "updateClusteringRules", 400 as never))).toContain(
      "expected one of 200, 401, 422",
    );
  });
});

describe("idpInteraction keeps every interaction of a pact (Pact keeps one per description and state)", () => {
  const message = (build: () => unknown): string => {
    try {
      build();
    } catch (e) {
      expect(e).toBeInstanceOf(IdpInteractionError);
      return (e as Error).message;
    }
    throw new Error("expected IdpInteractionError");
  };
  /** A valid push to the login user `id`, as the consumer's client sends it. */
  const push = (url: string, id: string) =>
    send(url, "pushToUserDevices", EXAMPLE_PUSH, PACT_PLACEHOLDER_AUTHORIZATION, id);
  const recorded = (consumer: string) =>
    (
      JSON.parse(readFileSync(join(dir, `${consumer}-idp-service.json`), "utf8")) as {
        interactions: { description: string; request: { path: string } }[];
      }
    ).interactions.map((i) => `${i.description} ${i.request.path}`);

  it("refuses a second interaction of one cell with the same description and state, naming both", async () => {
    const pact = newPact("builders-duplicate");
    const first = idpInteraction(pact, "pushToUserDevices", 200, { id: "u-1" });
    const text = message(() => idpInteraction(pact, "pushToUserDevices", 200, { id: "u-2" }));
    expect(text).toBe(
      `pushToUserDevices 200 interaction: received a second interaction "push to user devices: 200 for a valid notification to a login user" given "a login user exists" (pushToUserDevices 200, id "u-2"); the pact already holds one with that description and provider state (pushToUserDevices 200, id "u-1"), and Pact keeps only the last of the two; expected a description of its own, e.g. { description: "push to user devices: 200 for a valid notification to a login user (pushToUserDevices 200, id 'u-2')" }`,
    );
    // The first is untouched: it records and its test runs.
    await first.executeTest(async (mock) => expect(await push(mock.url, "u-1")).toBe(200));
    expect(recorded("builders-duplicate")).toEqual([
      "push to user devices: 200 for a valid notification to a login user /marketing/push_notifications/login/users/u-1/publish",
    ]);
  });

  it("records variants of one cell, each with its own description; an identical one again is no loss", async () => {
    const pact = newPact("builders-variants");
    for (const id of ["u-1", "u-2"])
      await idpInteraction(pact, "pushToUserDevices", 200, {
        id,
        description: `push to user devices: 200 for a valid notification to login user ${id}`,
      }).executeTest(async (mock) => expect(await push(mock.url, id)).toBe(200));
    // A retried test builds the same interaction again: nothing is lost, so it is not refused.
    expect(() =>
      idpInteraction(pact, "pushToUserDevices", 200, {
        id: "u-1",
        description: "push to user devices: 200 for a valid notification to login user u-1",
      }),
    ).not.toThrow();
    expect(recorded("builders-variants")).toHaveLength(2);
  });

  it("tells stateless interactions apart by description alone, and states by name", () => {
    const pact = newPact("builders-stateless");
    idpInteraction(pact, "createSchema", 401);
    expect(
      message(() =>
        idpInteraction(pact, "createSchema", 401, { body: { schema: "anything" } as never }),
      ),
    ).toContain(
      '(createSchema 401); the pact already holds one with that description and provider state (createSchema 401, schema.name "customers")',
    );
    // One description under two states: two interactions for Pact, so both are kept.
    idpInteraction(pact, "pushToUserDevices", 200, { description: "push" });
    expect(() =>
      idpInteraction(pact, "pushToUserDevices", 404, { description: "push" }),
    ).not.toThrow();
  });
});
