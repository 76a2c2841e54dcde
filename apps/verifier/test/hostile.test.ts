import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { closeServer, type RunningFake, startFakeProvider } from "./support/fake-provider.ts";
import { type Hostility, type RunningHostile, startHostile } from "./support/hostile.ts";
import { against, CREDENTIALS, runVerify } from "./support/run.ts";

let hostile: RunningHostile | undefined;
afterEach(async () => {
  await hostile?.close();
  hostile = undefined;
});

const FAST = ["--timeout-ms", "500", "--runs", "10", "--checks", "R1,R3,R6"];
const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

describe("hostile providers", () => {
  it.each<[Hostility, number, RegExp]>([
    ["refused", 2, /E_PROVIDER_UNREACHABLE: the provider at \S+ did not answer \(ECONNREFUSED/],
    ["hang", 2, /E_PROVIDER_UNREACHABLE: .*ETIMEDOUT: no complete answer within 500 ms/],
    ["reset", 2, /E_PROVIDER_UNREACHABLE: .*ECONNRESET/],
    [
      "garbage",
      2,
      /E_PROVIDER_UNREACHABLE: the provider at \S+ answered something that is not HTTP \(HPE_/,
    ],
  ])(
    "should end a run against a provider that does %s with exit %i and one clear line",
    async (kind, code, message) => {
      // Arrange
      hostile = await startHostile(kind);
      // Act
      const run = await runVerify([...against(hostile.baseUrl), ...FAST]);
      // Assert
      expect(run.code).toBe(code);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(STACK_LINE);
      expect(run.ms).toBeLessThan(10_000);
    },
  );

  it.each<Hostility>(["endless", "redirect-loop"])(
    "should end a run against a provider that does %s with exit 1 and a report",
    async (kind) => {
      // Arrange
      hostile = await startHostile(kind);
      // Act
      const run = await runVerify([...against(hostile.baseUrl), ...FAST]);
      // Assert
      expect(run.code).toBe(1);
      expect(run.stdout).toContain("✗ R1.auth.no-header");
      expect(run.stdout).toMatch(
        kind === "endless" ? /more than 1 MiB \(cut\)/ : /R3: 302 is not a documented status/,
      );
      expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
      expect(run.ms).toBeLessThan(20_000);
    },
  );

  it("should exit 1 when a provider answers some requests and then stops answering", async () => {
    // Arrange: a conforming provider behind a front that hangs from the 20th request on
    const fake: RunningFake = await startFakeProvider({ ...CREDENTIALS });
    let count = 0;
    const target = new URL(fake.baseUrl);
    const front: Server = createServer((req, res) => {
      count++;
      if (count >= 20) return; // hang
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        const answer = await fetch(`${target.origin}${req.url}`, {
          method: req.method ?? "GET",
          headers: Object.fromEntries(
            Object.entries(req.headers).filter(
              ([k]) => k !== "connection" && k !== "content-length",
            ),
          ) as Record<string, string>,
          body: Buffer.concat(chunks),
        });
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
    const { port } = front.address() as AddressInfo;
    try {
      // Act
      const run = await runVerify([...against(`http://127.0.0.1:${port}/v1`), ...FAST]);
      // Assert
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(
        /the provider stopped answering, run ended early: 5 requests in a row got no answer/,
      );
      expect(run.stdout).toMatch(/no answer: ETIMEDOUT/);
      expect(run.ms).toBeLessThan(20_000);
    } finally {
      await closeServer(front);
      await fake.close();
    }
  });
});
