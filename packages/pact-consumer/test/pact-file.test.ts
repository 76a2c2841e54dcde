// Checks the committed pacts/idp-toolkit-consumer-idp-service.json against what the verifier and
// conformance.md rely on: the 12 cells, the exact provider-state names, relative paths, the
// placeholder credential, and matchers rather than literals.
import { readFileSync } from "node:fs";
import { AUTHENTICATION_FAILED, detailedOperations, PROVIDER_STATES } from "@idp/contracts";
import { describe, expect, it } from "vitest";
import {
  PACT_CONSUMER,
  PACT_FILE,
  PACT_PLACEHOLDER_AUTHORIZATION,
  PACT_PROVIDER,
  PACT_WRONG_AUTHORIZATION,
} from "../src/index.ts";
import {
  exampleClusteringRules,
  exampleCreateSchemaRequest,
  exampleUserPublishRequest,
  invalidExample,
} from "./support/examples.ts";

interface Rules {
  [path: string]: { matchers: { match: string; regex?: string; min?: number }[] };
}
interface Interaction {
  description: string;
  type: string;
  providerStates?: { name: string; params: Record<string, string> }[];
  request: {
    method: string;
    path: string;
    headers: Record<string, string[]>;
    body?: { content: unknown };
    matchingRules: { body?: Rules; header?: Rules };
  };
  response: {
    status: number;
    headers?: Record<string, string[]>;
    body?: { content: Record<string, unknown> };
    matchingRules?: { body?: Rules; header?: Rules };
  };
}

const pact = JSON.parse(readFileSync(PACT_FILE, "utf8")) as {
  consumer: { name: string };
  provider: { name: string };
  interactions: Interaction[];
  metadata: { pactSpecification: { version: string } };
};

const STATES = [
  "a login user exists",
  "no login user exists",
  "a login user of another login app exists",
  "no schema with this name exists",
];

function operationOf(i: Interaction) {
  const op = Object.values(detailedOperations).find(
    (o) =>
      o.method === i.request.method &&
      new RegExp(`^${o.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(i.request.path),
  );
  if (!op) throw new Error(`no detailed operation for ${i.request.method} ${i.request.path}`);
  return op;
}

describe(`committed pact ${PACT_CONSUMER}-${PACT_PROVIDER}.json`, () => {
  it("is a V4 pact between the fixed consumer and provider", () => {
    expect(pact.consumer.name).toBe(PACT_CONSUMER);
    expect(pact.provider.name).toBe(PACT_PROVIDER);
    expect(pact.metadata.pactSpecification.version).toBe("4.0");
  });

  it("records exactly the 12 documented client cells (no 500), with unique descriptions", () => {
    const cells = pact.interactions.map((i) => `${operationOf(i).id} ${i.response.status}`).sort();
    expect(cells).toEqual(
      [
        "createSchema 201",
        "createSchema 400",
        "createSchema 401",
        "createSchema 422",
        "pushToUserDevices 200",
        "pushToUserDevices 400",
        "pushToUserDevices 401",
        "pushToUserDevices 403",
        "pushToUserDevices 404",
        "updateClusteringRules 200",
        "updateClusteringRules 401",
        "updateClusteringRules 422",
      ].sort(),
    );
    expect(new Set(pact.interactions.map((i) => i.description)).size).toBe(12);
  });

  it.each(pact.interactions.map((i) => [i.description, i] as const))("%s", (_, i) => {
    const op = operationOf(i);
    expect(i.type).toBe("Synchronous/HTTP");
    expect(i.request.path.startsWith("/marketing/")).toBe(true);
    expect(op.documentedStatuses).toContain(i.response.status);

    // Provider states: exact names from conformance.md §4, each naming what the request uses. Only
    // the interactions whose answer depends on stored state have one: push 200/403/404 (the login
    // user) and create schema 201 (a provider may refuse a name it holds, conformance.md §1).
    for (const state of i.providerStates ?? []) {
      expect(STATES).toContain(state.name);
      if (state.name === PROVIDER_STATES.noSchemaWithName)
        expect(
          (i.request.body?.content as { schema?: { name?: string } } | undefined)?.schema?.name,
        ).toBe(state.params.name);
      else
        expect(i.request.path).toBe(
          `/marketing/push_notifications/login/users/${state.params.id}/publish`,
        );
    }
    const needsState =
      (op.id === "pushToUserDevices" && [200, 403, 404].includes(i.response.status)) ||
      (op.id === "createSchema" && i.response.status === 201);
    expect(i.providerStates ?? []).toHaveLength(needsState ? 1 : 0);

    // Credentials: the placeholder (regex-matched) everywhere but 401; a fixed wrong one on 401.
    const authorization = i.request.headers.Authorization ?? i.request.headers.authorization;
    if (i.response.status === 401) {
      expect(authorization).toEqual([PACT_WRONG_AUTHORIZATION]);
    } else {
      expect(authorization).toEqual([PACT_PLACEHOLDER_AUTHORIZATION]);
      expect(i.request.matchingRules.header?.Authorization?.matchers[0]?.match).toBe("regex");
    }
    // Request bodies are the seeded generator examples, unchanged by Pact, under a type matcher.
    expect(i.request.body?.content).toEqual(expectedRequestBody(op.id, i.response.status));
    expect(i.request.matchingRules.body?.$?.matchers[0]?.match).toBe("type");

    if (i.response.status < 400) {
      expect(i.response.status).toBe(op.successStatus);
      expect(i.response.body).toBeUndefined(); // R8
      return;
    }
    const body = i.response.body?.content ?? {};
    expect(Object.keys(body).sort()).toEqual(["error", "error_description", "errors"]);
    const rules = i.response.matchingRules?.body ?? {};
    expect(rules["$.errors"]?.matchers[0]).toMatchObject({ match: "type", min: 0 });
    expect(rules["$.errors[*]"]?.matchers[0]?.match).toBe("type");
    expect(rules["$.error_description"]?.matchers[0]?.match).toBe("type");
    if (i.response.status === 401) {
      expect(body.error).toBe(AUTHENTICATION_FAILED);
      expect(rules["$.error"]).toBeUndefined(); // the literal is the contract (R1)
    } else {
      expect(rules["$.error"]?.matchers[0]?.match).toBe("type");
    }
    expect(i.response.matchingRules?.header?.["Content-Type"]?.matchers[0]?.match).toBe("regex");
  });
});

function expectedRequestBody(op: string, status: number): unknown {
  if (op === "createSchema")
    return status === 400 || status === 422
      ? invalidExample("createSchema", status).body
      : exampleCreateSchemaRequest();
  if (op === "pushToUserDevices")
    return status === 400
      ? invalidExample("pushToUserDevices", 400).body
      : exampleUserPublishRequest();
  return status === 422
    ? invalidExample("updateClusteringRules", 422).body
    : exampleClusteringRules();
}
