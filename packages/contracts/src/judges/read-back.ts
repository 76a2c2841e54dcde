import type { RuleSource } from "../rules.ts";
import type { ClusteringRules, CreateSchemaRequest } from "../shapes.ts";
import { bodyText, type ObservedResponse, type Problem, preview } from "./problem.ts";

// R9 read your writes (conformance.md §8): what a provider acknowledged, it must give back.

const SOURCE: RuleSource = { source: "pinned", ref: "conformance.md §8 (R9)" };

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The answer's JSON, bare or wrapped in `{"<wrapper>": ...}` (§8 allows both). */
function unwrap(answer: ObservedResponse, wrapper: string): Record<string, Json> | string {
  let parsed: Json;
  try {
    parsed = JSON.parse(bodyText(answer.body));
  } catch {
    return "the answer is not JSON";
  }
  if (!isObject(parsed)) return `the answer is ${preview(parsed)}, not a JSON object`;
  const inner = parsed[wrapper];
  return isObject(inner) ? inner : parsed;
}

const problem = (what: string, message: string, expected: string, received: string): Problem => ({
  rule: "R9",
  kind: "read-back",
  message: `R9: ${what} ${message}`,
  source: SOURCE,
  expected,
  received,
});

/**
 * After a 201 for a create, the GET of that schema: 200, the same `name`, and `fields` with the
 * same `name`, `type` and `unique` (absent `unique` equals `false`), in order; extra keys allowed.
 */
export function schemaReadBackProblem(
  sent: CreateSchemaRequest["schema"],
  answer: ObservedResponse,
): Problem | undefined {
  const what = `the schema created as ${preview(sent.name, 40)}`;
  if (answer.status !== 200)
    return problem(
      what,
      `must be read back with 200, got ${answer.status}`,
      "200",
      String(answer.status),
    );
  const got = unwrap(answer, "schema");
  if (typeof got === "string") return problem(what, `must be read back: ${got}`, "the schema", got);
  if (got.name !== sent.name)
    return problem(
      what,
      `is read back with name ${preview(got.name, 40)}`,
      preview(sent.name),
      preview(got.name),
    );
  const fields = got.fields;
  if (!Array.isArray(fields))
    return problem(
      what,
      "is read back without its fields",
      `${sent.fields.length} fields`,
      preview(fields),
    );
  if (fields.length !== sent.fields.length)
    return problem(
      what,
      `is read back with ${fields.length} field${fields.length === 1 ? "" : "s"} of the ${sent.fields.length} created`,
      `${sent.fields.length} fields`,
      `${fields.length} fields`,
    );
  for (const [i, f] of sent.fields.entries()) {
    const g = fields[i];
    const want = { name: f.name, type: f.type, unique: f.unique ?? false };
    const back = isObject(g) ? { name: g.name, type: g.type, unique: g.unique ?? false } : g;
    if (JSON.stringify(back) !== JSON.stringify(want))
      return problem(what, `is read back with fields[${i}] changed`, preview(want), preview(back));
  }
  return undefined;
}

/** A classifier as compared: absent `excluded_words` equals `[]`. */
const classifierOf = (c: Json) =>
  isObject(c)
    ? {
        type: c.type,
        categories: c.categories,
        threshold: c.threshold,
        excluded_words: c.excluded_words ?? [],
      }
    : c;
const featureOf = (f: Json) =>
  isObject(f)
    ? {
        labels: Array.isArray(f.labels)
          ? f.labels.map((l) => (isObject(l) ? { name: l.name, keywords: l.keywords } : l))
          : f.labels,
        classifier: classifierOf(f.classifier),
      }
    : f;

/**
 * After a 200 for a rules update, the GET of the rules: 200 and the rules that were sent (every
 * tabulated field; absent `excluded_words` equals `[]`; extra keys allowed).
 */
export function rulesReadBackProblem(
  sent: ClusteringRules["rules"],
  answer: ObservedResponse,
): Problem | undefined {
  const what = "the clustering rules just updated";
  if (answer.status !== 200)
    return problem(
      what,
      `must be read back with 200, got ${answer.status}`,
      "200",
      String(answer.status),
    );
  const got = unwrap(answer, "rules");
  if (typeof got === "string") return problem(what, `must be read back: ${got}`, "the rules", got);
  const gotFeatures = isObject(got.features) ? got.features : undefined;
  if (!gotFeatures)
    return problem(
      what,
      "are read back without their features",
      "a features map",
      preview(got.features),
    );
  const names = Object.keys(sent.features);
  const gotNames = Object.keys(gotFeatures);
  const missing = names.filter((n) => !Object.hasOwn(gotFeatures, n));
  if (missing.length > 0 || gotNames.length !== names.length)
    return problem(
      what,
      missing.length > 0
        ? `are read back without the feature ${preview(missing[0], 40)}`
        : `are read back with ${gotNames.length} features of the ${names.length} sent`,
      preview(names),
      preview(gotNames),
    );
  for (const name of names) {
    const want = featureOf(sent.features[name]);
    const back = featureOf(gotFeatures[name]);
    if (JSON.stringify(back) !== JSON.stringify(want))
      return problem(
        what,
        `are read back with the feature ${preview(name, 40)} changed`,
        preview(want, 120),
        preview(back, 120),
      );
  }
  const params = isObject(got.parameters) ? got.parameters.excluded_words : undefined;
  if (JSON.stringify(params) !== JSON.stringify(sent.parameters.excluded_words))
    return problem(
      what,
      "are read back with parameters.excluded_words changed",
      preview(sent.parameters.excluded_words),
      preview(params),
    );
  return undefined;
}
