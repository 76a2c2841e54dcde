import type { BodyViolationKind } from "../classify-body.ts";
import { formatPath, type JsonPath } from "../json-path.ts";
import type { ContractProfile } from "../profiles.ts";
import type { RuleSource } from "../rules.ts";
import { bodyText, type ObservedResponse, oneLine, type Problem, preview } from "./problem.ts";

// R10 errors name the field (conformance.md §10, opt-in): for an invalid payload that breaks exactly
// one field, the 4xx answer names it, so a caller knows what to fix.

const SOURCE: RuleSource = { source: "pinned", ref: "conformance.md §10 (R10)" };

/**
 * The violations that break exactly one field: a wrong JSON type (the wrapper's included) and a
 * missing wrapper under any profile; a missing field, an unknown key or a value not in use where
 * the profile asserts them.
 */
export const FIELD_VIOLATION_KINDS: ReadonlySet<BodyViolationKind> = new Set([
  "wrong-type",
  "wrapper-not-object",
  "wrapper-missing",
  "missing-field",
  "unknown-key",
  "value-not-in-use",
]);

/** `/data/vibrate_duration`, RFC 6901 escapes included. */
const pointerOf = (path: JsonPath) =>
  path.map((seg) => `/${String(seg).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");

/**
 * The words that name the field at `path`: its last path segment, or where that is an array index
 * or a key of the features map (a name the caller chose, maybe empty or 100,000 characters long),
 * the field that holds it; and its path, dotted (`schema.fields[0].type`, `schema.fields.0.type`)
 * or as a JSON Pointer.
 */
export function namesOfField(path: JsonPath): string[] {
  const mapKey = path.length === 3 && path[0] === "rules" && path[1] === "features";
  const named = path.filter(
    (seg, i): seg is string => typeof seg === "string" && !(mapKey && i === 2),
  );
  const last = named[named.length - 1];
  const names = new Set<string>();
  if (last !== undefined && last !== "") names.add(last);
  names.add(formatPath(path));
  names.add(path.join("."));
  names.add(pointerOf(path));
  return [...names];
}

/** Every text of an error body that may name a field: `errors` items (an object's `attribute`) and `error_description`. */
function textsOf(body: unknown, profile: ContractProfile): string[] {
  if (typeof body !== "object" || body === null) return [];
  const { errors, error_description: description } = body as Record<string, unknown>;
  const out: string[] = [];
  if (typeof description === "string") out.push(description);
  if (Array.isArray(errors))
    for (const item of errors) {
      if (typeof item === "string") out.push(item);
      else if (
        profile.errorsItems.includes("object") &&
        typeof item === "object" &&
        item !== null &&
        typeof (item as { attribute?: unknown }).attribute === "string"
      )
        out.push((item as { attribute: string }).attribute);
    }
  return out;
}

/**
 * R10: the 400 or 422 answer to a body that breaks one field (at `path`) names it in a string of
 * `errors` (an object item's `attribute` under `errorsItems: ["object"]`) or in
 * `error_description`. Other statuses are not R10's: a 401 is about the credentials (R1), a
 * 403/404 about the login user (R7), a success or a 5xx R4's, R5's and R6's.
 */
export function unnamedFieldProblem(
  path: JsonPath,
  res: ObservedResponse,
  profile: ContractProfile,
): Problem | undefined {
  if (res.status !== 400 && res.status !== 422) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(bodyText(res.body));
  } catch {
    body = undefined;
  }
  const texts = textsOf(body, profile).map((t) => t.toLowerCase());
  const names = namesOfField(path);
  if (names.some((n) => texts.some((t) => t.includes(n.toLowerCase())))) return undefined;
  const field = formatPath(path);
  const shown =
    body && typeof body === "object" && !Array.isArray(body)
      ? preview(
          {
            error_description: (body as Record<string, unknown>).error_description,
            errors: (body as Record<string, unknown>).errors,
          },
          200,
        )
      : preview(bodyText(res.body), 200);
  return {
    rule: "R10",
    kind: "field-unnamed",
    message: oneLine(
      `R10: a ${res.status} to a body whose one broken field is ${field} must name it (${names
        .slice(0, 2)
        .join(" or ")}) in errors or error_description; it does not: ${shown}`,
    ),
    source: SOURCE,
    expected: `errors or error_description naming ${names.slice(0, 2).join(" or ")}`,
    received: oneLine(shown),
  };
}
