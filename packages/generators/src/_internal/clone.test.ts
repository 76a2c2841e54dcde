import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { cloneJson } from "./clone.ts";

/** Every object and array inside a value. */
const containers = (v: unknown, out: object[] = []): object[] => {
  if (v !== null && typeof v === "object") {
    out.push(v);
    for (const x of Object.values(v)) containers(x, out);
  }
  return out;
};

// The oracle is structuredClone (what the generators used before) and identity: a copy equals the
// value and shares none of its objects, so changing the copy never changes a generated value.
test.prop([fc.jsonValue()], { numRuns: 300 })(
  "a copy equals structuredClone's and shares no object with the value",
  (value) => {
    const copy = cloneJson(value);
    expect(copy).toStrictEqual(structuredClone(value));
    const mine = new Set(containers(value));
    for (const c of containers(copy)) expect(mine.has(c)).toBe(false);
  },
);

test.prop([fc.jsonValue()])("an own __proto__ key stays a key, never a prototype", (inner) => {
  const value = JSON.parse(`{"__proto__":${JSON.stringify(inner)},"a":1}`) as object;
  const copy = cloneJson(value);
  expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  expect(Object.keys(copy)).toEqual(["__proto__", "a"]);
  expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
});
