// R10 errors name the field (conformance.md §10): the judge reads errors and error_description.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  defaultProfile,
  namesOfField,
  profileFromFile,
  unnamedFieldProblem,
} from "../src/index.ts";

const answer = (status: number, body: unknown) => ({
  status,
  contentType: "application/json",
  body: JSON.stringify(body),
});
const errorBody = (errors: unknown[], description = "The parameters are not valid") => ({
  error: "parameter_error",
  error_description: description,
  errors,
});
const objects = profileFromFile({ name: "o", errorsItems: ["object"] }, "o.json");

describe("R10: a 4xx names the one broken field", () => {
  it.each([
    ["its name in errors", ["vibrate_duration must be an integer"]],
    ["its path in errors", ["data.vibrate_duration: expected integer, got string"]],
    ["its JSON Pointer", ["/data/vibrate_duration is not an integer"]],
    ["its name in another case", ["Vibrate_Duration is wrong"]],
  ])("passes with %s", (_, errors) => {
    expect(
      unnamedFieldProblem(
        ["data", "vibrate_duration"],
        answer(400, errorBody(errors)),
        defaultProfile,
      ),
    ).toBeUndefined();
  });

  it("passes with the name in error_description only", () => {
    const body = errorBody(["invalid"], "vibrate_duration: expected integer");
    expect(
      unnamedFieldProblem(["data", "vibrate_duration"], answer(400, body), defaultProfile),
    ).toBeUndefined();
  });

  it("fails a generic message, naming the field, the rule's source and the answer", () => {
    const p = unnamedFieldProblem(
      ["data", "vibrate_duration"],
      answer(400, errorBody(["the request is invalid"], "Bad Request")),
      defaultProfile,
    );
    expect(p).toMatchObject({
      rule: "R10",
      kind: "field-unnamed",
      source: { source: "pinned", ref: "conformance.md §10 (R10)" },
    });
    expect(p?.message).toContain("data.vibrate_duration");
    expect(p?.message).toContain("the request is invalid");
  });

  it("reads an object item's attribute only where the profile allows objects", () => {
    const body = errorBody(
      [{ attribute: "vibrate_duration", message: "is invalid", code: "invalid" }],
      "Invalid",
    );
    expect(
      unnamedFieldProblem(["data", "vibrate_duration"], answer(422, body), objects),
    ).toBeUndefined();
    expect(
      unnamedFieldProblem(["data", "vibrate_duration"], answer(422, body), defaultProfile)?.rule,
    ).toBe("R10");
  });

  it("judges only 400 and 422 answers (R1, R4, R5, R6, R7 judge the others)", () => {
    for (const status of [200, 201, 500, 302, 401, 403, 404])
      expect(
        unnamedFieldProblem(["data", "badge"], answer(status, errorBody(["no"])), defaultProfile),
      ).toBeUndefined();
  });

  it("names an array element by the field that holds it and its path, a map's value by the map", () => {
    expect(namesOfField(["schema", "fields", 0])).toEqual(
      expect.arrayContaining(["fields", "schema.fields[0]", "/schema/fields/0"]),
    );
    expect(namesOfField(["rules", "features", "sports"])).toContain("features");
    expect(namesOfField(["rules", "features", "sports"])).not.toContain("sports");
    expect(namesOfField(["rules", "features", "sports", "classifier"])).toContain("classifier");
  });

  test.prop([
    fc.constantFrom(
      ["schema", "name"],
      ["data", "badge"],
      ["rules", "parameters", "excluded_words"],
    ),
    fc.string(),
  ])("fails exactly when no text holds a name of the field", (path, text) => {
    const names = namesOfField(path).map((n) => n.toLowerCase());
    const named = names.some((n) => text.toLowerCase().includes(n) || "x".includes(n));
    const p = unnamedFieldProblem(path, answer(400, errorBody([text], "x")), defaultProfile);
    expect(p === undefined).toBe(named);
  });
});
