import { BOUND_PATH_NAMES, type BoundPath } from "./bounds.ts";
import { NEIGHBOUR_NAMES, type NeighbourName } from "./neighbours.ts";
import { DETAILED_OPERATION_IDS, type DetailedOperationId } from "./operations.ts";
import type { RuleSource } from "./rules.ts";
import { VALUES_IN_USE_KEYS, type ValuesInUseKey } from "./values-in-use.ts";
import { SPEC_VIOLATION_KINDS, VIOLATION_KINDS, type ViolationKind } from "./violations.ts";

/** The two login-user cases of R7 (conformance.md §1). */
export const LOGIN_USER_KINDS = ["unknown", "otherLoginApp"] as const;
/** `unknown` (no login user has the id) or `otherLoginApp` (R7). */
export type LoginUserKind = (typeof LOGIN_USER_KINDS)[number];

/**
 * A leaf key of a profile file (conformance.md §6), the unit a profile can change and the unit
 * whose source a failure names, e.g. `statusMapping.pushToUserDevices.wrong-type`.
 */
export type ProfileKey =
  | `documentedStatuses.${DetailedOperationId}`
  | `statusMapping.${DetailedOperationId}.${ViolationKind}`
  | `loginUserStatuses.${LoginUserKind}`
  | "errorsItems"
  | `valuesInUse.${ValuesInUseKey}`
  | `neighbours.${NeighbourName}`
  | `bounds.${BoundPath}`;

/** Every profile key, in the order of a profile file. */
export const PROFILE_KEYS: readonly ProfileKey[] = [
  ...DETAILED_OPERATION_IDS.map((op) => `documentedStatuses.${op}` as const),
  ...DETAILED_OPERATION_IDS.flatMap((op) =>
    VIOLATION_KINDS.map((kind) => `statusMapping.${op}.${kind}` as const),
  ),
  ...LOGIN_USER_KINDS.map((kind) => `loginUserStatuses.${kind}` as const),
  "errorsItems",
  ...VALUES_IN_USE_KEYS.map((key) => `valuesInUse.${key}` as const),
  ...NEIGHBOUR_NAMES.map((name) => `neighbours.${name}` as const),
  ...BOUND_PATH_NAMES.map((path) => `bounds.${path}` as const),
];

const OPERATION_SECTIONS: { readonly [O in DetailedOperationId]: string } = {
  createSchema: "service-interface.md: Create a new schema",
  pushToUserDevices: "service-interface.md: Send push notification to all user devices",
  updateClusteringRules: "service-interface.md: Update login app clustering rules (deprecated)",
};

const VALUES_IN_USE_SECTIONS: { readonly [K in ValuesInUseKey]: string } = {
  "schema.fields[].type": "service-interface.md: Schema field (create)",
  "rules.features.*.classifier.type": "service-interface.md: Clustering rules",
};

/** Where the built-in value of each profile key comes from (the spec or conformance.md). */
export function builtInSource(key: ProfileKey): RuleSource {
  const [head, ...rest] = key.split(".");
  switch (head) {
    case "documentedStatuses":
      return { source: "spec", ref: OPERATION_SECTIONS[rest[0] as DetailedOperationId] };
    case "statusMapping": {
      const kind = rest[1] as ViolationKind;
      return SPEC_VIOLATION_KINDS.includes(kind)
        ? { source: "pinned", ref: "conformance.md §3" }
        : // Strict-only kinds follow the row's wrong-type status: our reading, named in violations.ts.
          { source: "pinned", ref: "conformance.md §3 (strict-only kinds: as wrong-type)" };
    }
    case "loginUserStatuses":
      return { source: "pinned", ref: "conformance.md §1 R7" };
    case "errorsItems":
      return { source: "spec", ref: "service-interface.md: Errors" };
    case "neighbours":
      return { source: "pinned", ref: "conformance.md §8" };
    case "bounds":
      return { source: "pinned", ref: "conformance.md §2 (no bounds are known)" };
    default:
      return { source: "spec", ref: VALUES_IN_USE_SECTIONS[rest.join(".") as ValuesInUseKey] };
  }
}

/** True when `key` is one of {@link PROFILE_KEYS}. */
export function isProfileKey(key: string): key is ProfileKey {
  return (PROFILE_KEYS as readonly string[]).includes(key);
}
