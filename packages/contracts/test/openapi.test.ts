import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import {
  AUTHENTICATION_FAILED,
  createOpenApiDocument,
  DETAILED_OPERATION_IDS,
  detailedOperations,
  ErrorBody,
  openApiJson,
  shapeRegistry,
} from "../src/index.ts";

const committed = fileURLToPath(new URL("../../../docs/openapi.json", import.meta.url));

describe("the OpenAPI 3.1 export", () => {
  it("should be a valid OpenAPI 3.1 document for a real parser", async () => {
    const result = await validate(structuredClone(createOpenApiDocument()) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("should describe every detailed operation with its documented statuses, Basic security and error bodies", () => {
    const doc = JSON.parse(openApiJson());
    expect(doc.components.securitySchemes.basic).toMatchObject({ type: "http", scheme: "basic" });
    for (const id of DETAILED_OPERATION_IDS) {
      const op = detailedOperations[id];
      const entry = doc.paths[op.path][op.method.toLowerCase()];
      expect(Object.keys(entry.responses).map(Number)).toEqual(
        [...op.documentedStatuses].sort((a, b) => a - b),
      );
      expect(entry.responses[String(op.successStatus)].content).toBeUndefined();
      for (const status of op.documentedStatuses.filter((s) => s >= 400)) {
        expect(entry.responses[String(status)].content["application/json"].schema.$ref).toBe(
          "#/components/schemas/ErrorBody",
        );
      }
      expect(entry.deprecated === true).toBe(op.deprecated !== false);
      // The 401 example carries the one error value the spec shows, and parses as an ErrorBody.
      const example = entry.responses["401"].content["application/json"].example;
      expect(example.error).toBe(AUTHENTICATION_FAILED);
      expect(ErrorBody.safeParse(example).success).toBe(true);
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([...shapeRegistry.keys()]),
    );
  });

  it("should round-trip through JSON unchanged", () => {
    const json = openApiJson();
    expect(`${JSON.stringify(JSON.parse(json), null, 2)}\n`).toBe(json);
  });

  it("should match the committed docs/openapi.json (regenerate from the repository root with `pnpm --filter @idp/contracts openapi --out docs/openapi.json`)", () => {
    expect(readFileSync(committed, "utf8")).toBe(openApiJson());
  });
});
