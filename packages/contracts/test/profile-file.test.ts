import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  classifyRequestBody,
  DETAILED_OPERATION_IDS,
  defaultProfile,
  errorBodyProblem,
  loadProfile,
  loginUserProblem,
  PROFILE_KEYS,
  ProfileError,
  type ProfileKey,
  profileFromFile,
  profileToFile,
  rejectionProblem,
  strictProfile,
  undocumentedStatusProblem,
} from "../src/index.ts";
import { createSchemaExample, pushExample } from "./examples.ts";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "idp-profiles-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FILE = "./team.json";
const fromFile = (json: object) => profileFromFile(json, FILE);
const fromProfile = (key: ProfileKey) => ({ source: "profile", ref: `${FILE}: ${key}` });

/** The keys whose source is a profile, to show that a file changes only what it names. */
const profileKeys = (p: { sourceOf(k: ProfileKey): { source: string } }) =>
  PROFILE_KEYS.filter((k) => p.sourceOf(k).source === "profile");

// Hand-written answers, as a provider following the service's documentation sends them.
const json = (status: number, body: unknown) => ({
  status,
  contentType: "application/json; charset=utf-8",
  body: JSON.stringify(body),
});
const objectErrors = json(422, {
  error: "unprocessable_entity",
  error_description: "validation failed",
  errors: [{ attribute: "schema.name", message: "can't be blank", code: "blank" }],
});
const stringErrors = json(422, {
  error: "unprocessable_entity",
  error_description: "validation failed",
  errors: ["schema.name can't be blank"],
});

describe("each key of a profile file changes what it names, and says so in its source", () => {
  it("name, extends and description: a file extends default unless it says strict", () => {
    const plain = fromFile({ name: "team" });
    expect(plain.name).toBe("team");
    expect(plain.builtIn).toBe("default");
    expect(plain.asserted).toEqual(defaultProfile.asserted);
    expect(plain.description).toContain(FILE);
    expect(profileKeys(plain)).toEqual([]);
    const strict = fromFile({ name: "team", extends: "strict", description: "ours" });
    expect(strict.builtIn).toBe("strict");
    expect(strict.description).toBe("ours");
    expect(strict.asserted).toEqual(strictProfile.asserted);
    const { name: _, ...noName } = createSchemaExample.schema;
    expect(
      classifyRequestBody("createSchema", JSON.stringify({ schema: noName }), strict),
    ).toMatchObject({ outcome: "invalid", violation: { kind: "missing-field" } });
  });

  it("documentedStatuses.<operation>: R3 accepts the listed statuses of that operation only", () => {
    const p = fromFile({
      name: "team",
      documentedStatuses: { createSchema: [201, 400, 401, 409, 422, 500] },
    });
    expect(undocumentedStatusProblem("createSchema", 409, p)).toBeUndefined();
    expect(undocumentedStatusProblem("createSchema", 409)).toMatchObject({ rule: "R3" });
    expect(undocumentedStatusProblem("updateClusteringRules", 409, p)).toMatchObject({
      source: { source: "spec" },
    });
    expect(undocumentedStatusProblem("createSchema", 418, p)?.source).toEqual(
      fromProfile("documentedStatuses.createSchema"),
    );
    expect(profileKeys(p)).toEqual(["documentedStatuses.createSchema"]);
  });

  it("statusMapping.<operation>.<kind>: R5 pins that status for that violation only", () => {
    const p = fromFile({
      name: "team",
      documentedStatuses: { pushToUserDevices: [200, 400, 401, 403, 404, 422, 500] },
      statusMapping: { pushToUserDevices: { "wrong-type": 422 } },
    });
    const wrongType = JSON.stringify({ data: { ...pushExample.data, badge: "1" } });
    const noData = JSON.stringify({});
    expect(rejectionProblem("pushToUserDevices", wrongType, 422, p)).toBeUndefined();
    expect(rejectionProblem("pushToUserDevices", wrongType, 400, p)).toMatchObject({
      rule: "R5",
      expected: "422",
      received: "400",
      source: fromProfile("statusMapping.pushToUserDevices.wrong-type"),
    });
    expect(rejectionProblem("pushToUserDevices", noData, 400, p)).toBeUndefined();
    expect(rejectionProblem("pushToUserDevices", noData, 422, p)?.source).toEqual({
      source: "pinned",
      ref: "conformance.md §3",
    });
    expect(profileKeys(p)).toEqual([
      "documentedStatuses.pushToUserDevices",
      "statusMapping.pushToUserDevices.wrong-type",
    ]);
  });

  it("loginUserStatuses.<case>: R7 expects that status for that case only", () => {
    const p = fromFile({
      name: "team",
      loginUserStatuses: { unknown: 403 },
      documentedStatuses: { pushToUserDevices: [200, 400, 401, 403, 500] },
    });
    expect(loginUserProblem("unknown", 403, p)).toBeUndefined();
    expect(loginUserProblem("unknown", 404, p)?.source).toEqual(
      fromProfile("loginUserStatuses.unknown"),
    );
    expect(loginUserProblem("unknown", 403)).toMatchObject({ expected: "404" });
    expect(loginUserProblem("otherLoginApp", 404, p)?.source).toEqual({
      source: "pinned",
      ref: "conformance.md §1 R7",
    });
  });

  it("errorsItems: R2 accepts the error bodies whose errors hold what it lists", () => {
    const objects = fromFile({ name: "team", errorsItems: ["object"] });
    const both = fromFile({ name: "team", errorsItems: ["string", "object"] });
    expect(errorBodyProblem(objectErrors, objects)).toBeUndefined();
    expect(errorBodyProblem(stringErrors, objects)).toMatchObject({
      rule: "R2",
      kind: "errors-item",
      source: fromProfile("errorsItems"),
    });
    expect(errorBodyProblem(objectErrors, both)).toBeUndefined();
    expect(errorBodyProblem(stringErrors, both)).toBeUndefined();
    expect(errorBodyProblem(objectErrors)).toMatchObject({
      kind: "errors-item",
      source: { source: "spec", ref: "service-interface.md: Errors" },
    });
    // An object item needs all three strings.
    const partial = json(422, { error: "e", error_description: "d", errors: [{ message: "m" }] });
    expect(errorBodyProblem(partial, both)).toMatchObject({ kind: "errors-item" });
    expect(both.shapes.ErrorBody.safeParse(JSON.parse(objectErrors.body)).success).toBe(true);
  });

  it("valuesInUse.<path>: strict allows exactly those values; default never rejects a value", () => {
    const file = { name: "team", valuesInUse: { "schema.fields[].type": ["uuid", "float"] } };
    const strict = fromFile({ ...file, extends: "strict" });
    const lenient = fromFile(file);
    const withType = (type: string) =>
      JSON.stringify({ schema: { ...createSchemaExample.schema, fields: [{ name: "a", type }] } });
    expect(classifyRequestBody("createSchema", withType("uuid"), strict).outcome).toBe("valid");
    expect(classifyRequestBody("createSchema", withType("string"), strict)).toMatchObject({
      outcome: "invalid",
      violation: { kind: "value-not-in-use", path: ["schema", "fields", 0, "type"] },
    });
    expect(classifyRequestBody("createSchema", withType("uuid"), strictProfile).outcome).toBe(
      "invalid",
    );
    for (const type of ["uuid", "string", "anything"])
      expect(classifyRequestBody("createSchema", withType(type), lenient).outcome).toBe("valid");
    expect(strict.assumptions).toContain("schema field `type` is one of uuid, float (valuesInUse)");
    expect(strict.sourceOf("valuesInUse.schema.fields[].type")).toEqual(
      fromProfile("valuesInUse.schema.fields[].type"),
    );
    expect(strict.sourceOf("valuesInUse.rules.features.*.classifier.type")).toEqual({
      source: "spec",
      ref: "service-interface.md: Clustering rules",
    });
  });

  it("every other key keeps the built-in value and source", () => {
    const p = fromFile({ name: "team", errorsItems: ["object"] });
    for (const key of PROFILE_KEYS.filter((k) => k !== "errorsItems"))
      expect(p.sourceOf(key), key).toEqual(defaultProfile.sourceOf(key));
    expect(p.statusMapping).toEqual(defaultProfile.statusMapping);
    expect(p.documentedStatuses).toEqual(defaultProfile.documentedStatuses);
  });
});

/** A file with this content, loaded; the error it throws. */
function errorOf(content: string, name = "bad.json"): ProfileError {
  const path = join(work, name);
  writeFileSync(path, content);
  try {
    loadProfile(path);
  } catch (error) {
    if (error instanceof ProfileError) return error;
    throw error;
  }
  throw new Error(`loading ${content} did not throw`);
}

const SOURCE = {
  check: "R2.error-body",
  seen: "errors items that are objects {attribute, message, code}",
  request: "POST /marketing/datastore/schemas {}",
  answer: '422 {"errors":[{"attribute":"schema"}]}',
};

describe("sources: the evidence of learned keys (idp-verify --learn)", () => {
  it("is read with the file, and a learned key's source names its evidence", () => {
    const p = fromFile({
      name: "l",
      errorsItems: ["string", "object"],
      sources: { errorsItems: SOURCE },
    });
    expect(p.errorsItems).toEqual(["string", "object"]);
    expect(p.sourceOf("errorsItems")).toEqual({
      source: "profile",
      ref: `${FILE}: errorsItems (learned by R2.error-body: errors items that are objects {attribute, message, code})`,
    });
  });
});

describe("a bad profile file is one line naming the file, the key and what was expected", () => {
  const ops = DETAILED_OPERATION_IDS.join(", ");
  it.each([
    ["empty name", { name: "" }, "name", /^expected a non-empty string \(required\), received ""$/],
    ["no name", { extends: "strict" }, "name", /received nothing$/],
    [
      "unknown key",
      { name: "x", statusMaping: {} },
      "statusMaping",
      /did you mean "statusMapping"\?$/,
    ],
    ["unknown key, nothing close", { name: "x", colour: 1 }, "colour", /received an unknown key$/],
    ["extends a path", { name: "x", extends: "./base.json" }, "extends", /"default" or "strict"/],
    [
      "a source for a key the file does not set",
      { name: "x", errorsItems: ["object"], sources: { "bounds.schema.name": SOURCE } },
      "sources.bounds.schema.name",
      /^expected a key this file sets \(errorsItems\), received a source for a key the file does not set$/,
    ],
    [
      "a source without its answer",
      { name: "x", errorsItems: ["object"], sources: { errorsItems: { ...SOURCE, answer: 4 } } },
      "sources.errorsItems.answer",
      /^expected a string, received 4$/,
    ],
    [
      "a source with an unknown key",
      { name: "x", errorsItems: ["object"], sources: { errorsItems: { ...SOURCE, sen: "" } } },
      "sources.errorsItems.sen",
      /expected a source's key \(check, seen, request, answer\).*did you mean "seen"\?$/,
    ],
    ["extends a typo", { name: "x", extends: "strct" }, "extends", /did you mean "strict"\?$/],
    ["name not a string", { name: 7 }, "name", /received 7$/],
    [
      "unknown operation",
      { name: "x", documentedStatuses: { pushToUserDevice: [200] } },
      "documentedStatuses.pushToUserDevice",
      new RegExp(`expected an operation \\(${ops}\\).*did you mean "pushToUserDevices"\\?$`),
    ],
    [
      "unknown violation kind",
      { name: "x", statusMapping: { createSchema: { "wrong-typ": 422 } } },
      "statusMapping.createSchema.wrong-typ",
      /expected a violation kind .*did you mean "wrong-type"\?$/,
    ],
    [
      "a status that is not 400 or 422",
      { name: "x", statusMapping: { pushToUserDevices: { "wrong-type": "x" } } },
      "statusMapping.pushToUserDevices.wrong-type",
      /^expected 400 or 422 .*, received "x"$/,
    ],
    [
      "a status above 599",
      { name: "x", documentedStatuses: { createSchema: [201, 400, 401, 422, 700] } },
      "documentedStatuses.createSchema[4]",
      /^expected a status \(an integer 100-599\), received 700$/,
    ],
    [
      "a status below 100",
      { name: "x", documentedStatuses: { createSchema: [99] } },
      "documentedStatuses.createSchema[0]",
      /received 99$/,
    ],
    [
      "a fractional status",
      { name: "x", loginUserStatuses: { unknown: 403.5 } },
      "loginUserStatuses.unknown",
      /^expected a 4xx status \(an integer 400-499\), received 403.5$/,
    ],
    [
      "statuses not a list",
      { name: "x", documentedStatuses: { createSchema: 201 } },
      "documentedStatuses.createSchema",
      /^expected an array of distinct statuses/,
    ],
    [
      "a status twice",
      { name: "x", documentedStatuses: { createSchema: [201, 401, 201] } },
      "documentedStatuses.createSchema",
      /distinct.*received \[201,401,201\]$/,
    ],
    ["errorsItems empty", { name: "x", errorsItems: [] }, "errorsItems", /non-empty array/],
    [
      "errorsItems unknown",
      { name: "x", errorsItems: ["number"] },
      "errorsItems[0]",
      /received "number"$/,
    ],
    [
      "valuesInUse unknown path",
      { name: "x", valuesInUse: { "schema.fields.type": ["a"] } },
      "valuesInUse.schema.fields.type",
      /did you mean "schema.fields\[\].type"\?$/,
    ],
    [
      "valuesInUse empty",
      { name: "x", valuesInUse: { "schema.fields[].type": [] } },
      "valuesInUse.schema.fields[].type",
      /non-empty array of distinct strings, received \[\]$/,
    ],
    [
      "a pinned status the operation does not document",
      { name: "x", statusMapping: { pushToUserDevices: { "wrong-type": 422 } } },
      "statusMapping.pushToUserDevices.wrong-type",
      /documentedStatuses.pushToUserDevices lists \(200, 400, 401, 403, 404, 500\), received 422; add 422/,
    ],
    [
      "documented statuses without the success status",
      { name: "x", documentedStatuses: { createSchema: [400, 401, 422, 500] } },
      "documentedStatuses.createSchema",
      /includes 201 \(the success status R4 asserts\)/,
    ],
    [
      "documented statuses without a login-user status",
      { name: "x", documentedStatuses: { pushToUserDevices: [200, 400, 401, 403, 500] } },
      "documentedStatuses.pushToUserDevices",
      /includes 404 \(loginUserStatuses.unknown is 404\)/,
    ],
    [
      "a login-user status the operation does not document",
      { name: "x", loginUserStatuses: { otherLoginApp: 409 } },
      "loginUserStatuses.otherLoginApp",
      /received 409; add 409 to documentedStatuses.pushToUserDevices too, or R3 and R7/,
    ],
  ])("%s", (_, content, key, expected) => {
    const error = errorOf(JSON.stringify(content, null, 2));
    const file = join(work, "bad.json");
    expect(error.file).toBe(file);
    expect(error.key).toBe(key);
    expect(error.message).not.toContain("\n");
    expect(error.message.startsWith(`profile ${file}: ${key}: expected `)).toBe(true);
    expect(error.message.slice(`profile ${file}: ${key}: `.length)).toMatch(expected);
  });

  it.each([
    [
      "not JSON",
      "{ name: x",
      /^expected a JSON object \(conformance.md §6\), received text that is not JSON \(/,
    ],
    ["empty", "", /received text that is not JSON/],
    ["an array", "[1]", /^expected a JSON object with at least `name`.*received \[1\]$/],
    ["null", "null", /received null$/],
  ])("a file that is %s", (_, content, expected) => {
    const error = errorOf(content, "whole.json");
    expect(error.key).toBeUndefined();
    expect(error.message).not.toContain("\n");
    expect(error.message.slice(`profile ${join(work, "whole.json")}: `.length)).toMatch(expected);
  });

  it("an unreadable file: missing, a directory, or a typo of a built-in", () => {
    const load = (spec: string) => {
      try {
        loadProfile(spec, { cwd: work });
      } catch (error) {
        return error as ProfileError;
      }
      throw new Error(`${spec} loaded`);
    };
    expect(load("missing.json").message).toBe(
      'profile missing.json: expected "default", "strict" or the path of a readable JSON profile file, received no such file',
    );
    expect(load(".").message).toMatch(/^profile \.: .*received a directory$/);
    expect(load("strcit").message).toMatch(/received no such file; did you mean "strict"\?$/);
    expect(load("missing.json")).toBeInstanceOf(ProfileError);
  });

  it("resolves a path against options.cwd and names it as given", () => {
    writeFileSync(join(work, "rel.json"), JSON.stringify({ name: "rel", errorsItems: ["object"] }));
    const p = loadProfile("rel.json", { cwd: work });
    expect(p.name).toBe("rel");
    expect(p.sourceOf("errorsItems")).toEqual({ source: "profile", ref: "rel.json: errorsItems" });
    expect(loadProfile("default")).toBe(defaultProfile);
    expect(loadProfile("strict")).toBe(strictProfile);
  });
});

describe("profiles/observed-service.json, the shipped example", () => {
  const path = "profiles/observed-service.json";
  const raw = JSON.parse(readFileSync(join(REPO, path), "utf8"));
  const observed = loadProfile(path, { cwd: REPO });

  it("should load and write back to the same file (round trip)", () => {
    expect(profileToFile(observed)).toEqual(raw);
    expect(profileToFile(profileFromFile(profileToFile(observed), path))).toEqual(raw);
  });

  it("should read the service as issue 13 describes its documentation", () => {
    // push: a wrong-type field in data is 422; data missing or not an object stays 400.
    const push = observed.statusMapping.pushToUserDevices;
    expect(push["wrong-type"]).toBe(422);
    expect([push["wrapper-missing"], push["wrapper-not-object"], push["not-object"]]).toEqual([
      400, 400, 400,
    ]);
    expect(observed.documentedStatuses.pushToUserDevices).toContain(422);
    expect(observed.documentedStatuses.pushToUserDevices).not.toContain(404);
    expect(observed.loginUserStatuses).toEqual({ unknown: 403, otherLoginApp: 403 });
    expect(errorBodyProblem(objectErrors, observed)).toBeUndefined();
    expect(errorBodyProblem(stringErrors, observed)).toBeUndefined();
    expect(new Set(observed.valuesInUse["schema.fields[].type"])).toEqual(
      new Set([
        "array",
        "boolean",
        "date",
        "date_time",
        "float",
        "hash",
        "integer",
        "string",
        "time",
      ]),
    );
    // The other operations read as the default profile does.
    expect(observed.statusMapping.createSchema).toEqual(defaultProfile.statusMapping.createSchema);
    expect(observed.documentedStatuses.createSchema).toEqual(
      defaultProfile.documentedStatuses.createSchema,
    );
  });

  it("should accept error codes beyond authentication_failed (R2 asks only for a string)", () => {
    for (const error of [
      "unprocessable_entity",
      "bad_request",
      "forbidden",
      "not_found",
      "conflict",
    ])
      expect(
        errorBodyProblem(json(403, { error, error_description: "d", errors: [] }), observed),
      ).toBeUndefined();
  });
});

describe("profile error messages", () => {
  it("should stay on one line whatever the file name and keys hold", () => {
    const error = (() => {
      try {
        profileFromFile({ name: "x", "line\nbreak": 1 }, "my\nfile.json");
      } catch (e) {
        return e as ProfileError;
      }
      throw new Error("no error");
    })();
    expect(error.message).toBe(
      String.raw`profile my\nfile.json: line\nbreak: expected a key of a profile file (name, extends, description, documentedStatuses, statusMapping, loginUserStatuses, errorsItems, valuesInUse, bounds, neighbours, sources), received an unknown key`,
    );
    expect(error.file).toBe("my\nfile.json");
  });
});
