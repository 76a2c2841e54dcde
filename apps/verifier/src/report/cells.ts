import {
  type ContractProfile,
  DETAILED_OPERATION_IDS,
  type DetailedOperationId,
  detailedOperations,
} from "@idp/contracts";
import type { Cell, CheckResult } from "../results.ts";

/** The client-error statuses `--require-cells` asks every operation to show, where it documents them. */
export const REQUIRED_CLIENT_ERRORS: readonly number[] = [400, 401, 403, 404, 422];

/** The id of the pseudo-check `--require-cells` adds. */
export const CELLS_CHECK_ID = "cells.required";

/**
 * Every documented (operation, status) cell, in operation then status order, and whether any request
 * of the run was answered so. `documented` is the profile's documentedStatuses (the spec's by default).
 */
export function cellsOf(
  grid: Readonly<Record<string, Readonly<Record<string, number>>>>,
  documented: Readonly<Record<string, readonly number[]>>,
): Cell[] {
  return DETAILED_OPERATION_IDS.flatMap((operation) =>
    [...(documented[operation] ?? detailedOperations[operation].documentedStatuses)]
      .sort((a, b) => a - b)
      .map((status) => ({
        operation,
        status,
        seen: (grid[operation]?.[String(status)] ?? 0) > 0,
      })),
  );
}

/** The documented client-error cells no request produced: what `--require-cells` fails on. */
export const missingClientErrorCells = (cells: readonly Cell[]): Cell[] =>
  cells.filter((c) => !c.seen && REQUIRED_CLIENT_ERRORS.includes(c.status));

/** `pushToUserDevices 403, createSchema 422` */
export const cellsText = (cells: readonly Cell[]): string =>
  cells.map((c) => `${c.operation} ${c.status}`).join(", ");

/**
 * `--require-cells`: a check that fails when some documented client-error cell was never produced,
 * naming the cells; its source is where the first missing cell's operation documents its statuses.
 */
export function requiredCellsCheck(cells: readonly Cell[], profile: ContractProfile): CheckResult {
  const missing = missingClientErrorCells(cells);
  const first = (missing[0]?.operation ?? DETAILED_OPERATION_IDS[0]) as DetailedOperationId;
  const source = profile.sourceOf(`documentedStatuses.${first}`);
  const required = cells.filter((c) => REQUIRED_CLIENT_ERRORS.includes(c.status));
  const base = {
    id: CELLS_CHECK_ID,
    kind: "conformance" as const,
    title: `some request of the run gets each documented client-error status (${REQUIRED_CLIENT_ERRORS.join(", ")}) of each operation`,
    source,
    runs: { done: 1, asked: 1 },
    requests: 0,
    durationMs: 0,
    warnings: [],
  };
  if (missing.length === 0) return { ...base, status: "passed" };
  return {
    ...base,
    status: "failed",
    failure: {
      message: `cells: no request of the run got ${missing.length} documented client-error status${missing.length > 1 ? "es" : ""}: ${cellsText(missing)}`,
      kind: "cells",
      source,
      expected: `every one of ${required.length} documented client-error cells seen`,
      received: `not seen: ${cellsText(missing)}`,
      note: "a cell is seen when any request of the run (conformance or pact) got that status for that operation; give --provider-states-url for 403 and 404 of pushToUserDevices",
    },
  };
}
