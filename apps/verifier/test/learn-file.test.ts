// The learned profile file (learn/file.ts): extends the file in use (its keys and sources kept),
// sets the learned keys, leaves out the dropped ones, in one fixed key order, and is a profile.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { profileFromFile } from "@idp/contracts";
import { afterAll, describe, expect, it } from "vitest";
import { learnedFileText } from "../src/learn/file.ts";

const dir = mkdtempSync(join(tmpdir(), "idp-learn-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const source = (seen: string) => ({
  check: "R4.valid-accepted.createSchema",
  seen,
  request: "r",
  answer: "a",
});

describe("learnedFileText", () => {
  it("keeps the file in use, sets learned keys, drops what the provider no longer keeps, in order", () => {
    const inUse = join(dir, "team.json");
    // Keys in an unusual order: the output's order does not depend on it.
    writeFileSync(
      inUse,
      JSON.stringify({
        sources: {
          "bounds.data.title": source("old title"),
          "bounds.schema.name": source("old name"),
        },
        bounds: {
          "schema.name": { status: 422, maxLength: 64 },
          "data.title": { maxLength: 10, status: 400 },
        },
        errorsItems: ["string", "object"],
        description: "the team's",
        name: "team",
      }),
    );
    const text = learnedFileText({
      profileArg: "team.json",
      builtIn: "default",
      cwdPath: (p) => join(dir, p),
      seed: 1,
      runs: 10,
      path: "team.json",
      learned: [
        {
          key: "bounds.schema.name",
          value: { maxLength: 32, unit: "utf16", status: 422 },
          source: source("a schema.name of 33 UTF-16 units is refused with 422; 32 is accepted"),
        },
        { key: "loginUserStatuses.otherLoginApp", value: 404, source: source("404") },
      ],
      notLearned: [{ kind: "dropped", subject: "bounds.data.title", why: "", exchanges: [] }],
    });
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual([
      "name",
      "description",
      "loginUserStatuses",
      "errorsItems",
      "bounds",
      "sources",
    ]);
    expect(json.bounds).toEqual({ "schema.name": { maxLength: 32, unit: "utf16", status: 422 } });
    expect(Object.keys((json.bounds as Record<string, object>)["schema.name"] ?? {})).toEqual([
      "maxLength",
      "unit",
      "status",
    ]);
    expect(Object.keys(json.sources as object)).toEqual([
      "loginUserStatuses.otherLoginApp",
      "bounds.schema.name",
    ]);
    expect(json.errorsItems).toEqual(["string", "object"]);
    expect(text.endsWith("}\n")).toBe(true);
    const p = profileFromFile(json, "team.json");
    expect(p.sourceOf("bounds.schema.name").ref).toContain(
      "(learned by R4.valid-accepted.createSchema: a schema.name of 33",
    );
    expect(p.loginUserStatuses.otherLoginApp).toBe(404);
    expect(p.documentedStatuses.pushToUserDevices).toContain(404);
  });
});
