import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PactV4 } from "@pact-foundation/pact";
import { afterAll, describe, expect, it } from "vitest";
import { pactUnsafeReason } from "../src/index.ts";

// pactSafe's promise is that Pact's core writes a safe value into the pact file unchanged. The
// oracle is Pact's core itself: each number goes through a real mock server into a pact file and is
// read back (a generated fraction of 17 digits once came back one unit in the last place off).

const dir = mkdtempSync(join(tmpdir(), "idp-pact-safe-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The numbers as Pact's core writes them into a pact file, in order. */
async function throughPact(numbers: readonly number[]): Promise<number[]> {
  const pact = new PactV4({ consumer: "safe-c", provider: "safe-p", dir, logLevel: "error" });
  await pact
    .addInteraction()
    .uponReceiving("numbers")
    .withRequest("POST", "/numbers", (b) => b.jsonBody({ numbers }))
    .willRespondWith(204)
    .executeTest(async (server) => {
      await fetch(`${server.url}/numbers`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ numbers }),
      });
    });
  const file = JSON.parse(readFileSync(join(dir, "safe-c-safe-p.json"), "utf8")) as {
    interactions: { request: { body: { content: { numbers: number[] } } } }[];
  };
  return file.interactions[0]?.request.body.content.numbers ?? [];
}

describe("pactUnsafeReason against Pact's core", () => {
  // A threshold the generators drew (17 digits), and a short one of a tiny power of ten.
  const changed = [5.2406910179684247e-23, 1.5e-300];
  const safe = [0.5, 0.1, 0.123456789012345, -98765.4321, 1.5e-7, 1.2345e-17, 2 ** 53 - 1, 0];

  it("names the fractions Pact's core changes", async () => {
    const back = await throughPact(changed);
    changed.forEach((n, i) => {
      expect(back[i] === n, `Pact wrote ${back[i]} for ${n}`).toBe(false);
      expect(pactUnsafeReason({ rules: { threshold: n } })).toContain(
        `the number ${n} at $.rules.threshold`,
      );
    });
  });

  it("passes the numbers Pact's core keeps", async () => {
    expect(await throughPact(safe)).toEqual(safe);
    for (const n of safe) expect(pactUnsafeReason({ n }), String(n)).toBeUndefined();
  });
});

describe("pactUnsafeReason on strings", () => {
  it("names a lone surrogate in a value or a key, and passes well-formed pairs", () => {
    // JSON.stringify escapes a lone surrogate (\ud800), so the check must look at the strings.
    for (const lone of ["x\uD800", "\uDC00y", "a\uDBFFb"]) {
      expect(pactUnsafeReason({ data: { title: lone } }), JSON.stringify(lone)).toContain(
        "lone UTF-16 surrogate",
      );
      expect(pactUnsafeReason({ features: { [lone]: 1 } }), JSON.stringify(lone)).toContain(
        "lone UTF-16 surrogate",
      );
    }
    expect(pactUnsafeReason({ data: { title: "👍🏽 \uD83D\uDE00 é" } })).toBeUndefined();
  });
});
