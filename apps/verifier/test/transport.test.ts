// The transport's rules in isolation: what is throttling, how long to wait, which hosts a proxy
// serves (curl's reading of NO_PROXY), the shared rate limit, and the pace under throttling.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { AdaptiveGate } from "../src/http/adaptive-gate.ts";
import { bypassed, proxyFor, proxySettingsFrom } from "../src/http/proxy.ts";
import { parseRate, RateLimiter } from "../src/http/rate-limit.ts";
import { isThrottled, MAX_RETRY_AFTER_MS, retryDelayMs } from "../src/http/throttle.ts";

describe("throttling (conformance.md §7)", () => {
  it("calls 429 throttled, and 503 only with Retry-After", () => {
    expect(isThrottled(429, {})).toBe(true);
    expect(isThrottled(503, { "retry-after": "2" })).toBe(true);
    expect(isThrottled(503, {})).toBe(false);
    expect(isThrottled(500, { "retry-after": "2" })).toBe(false);
  });

  it("waits Retry-After seconds or until its HTTP date, each wait capped at 60 s", () => {
    const now = Date.UTC(2026, 0, 1);
    expect(retryDelayMs("3", 0, now)).toBe(3000);
    expect(retryDelayMs(new Date(now + 4500).toUTCString(), 0, now)).toBe(4000);
    expect(retryDelayMs("3600", 0, now)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryDelayMs(new Date(now - 10_000).toUTCString(), 0, now)).toBe(0);
  });

  it("without Retry-After backs off from 1 s, doubling, to at most 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 30].map((n) => retryDelayMs(undefined, n))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  test.prop([fc.string(), fc.nat(100)])("never waits less than 0 or more than 60 s", (value, n) => {
    const d = retryDelayMs(value, n);
    expect(d).toBeGreaterThanOrEqual(0);
    expect(d).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
  });
});

describe("proxies, as curl reads the environment", () => {
  const env = { https_proxy: "proxy:3128", HTTP_PROXY: "http://p2:8080", NO_PROXY: "" };
  it("takes https_proxy for https and HTTP_PROXY for http, lower case first", () => {
    const s = proxySettingsFrom(env);
    expect(proxyFor(new URL("https://api.example/v1"), s)).toBe("http://proxy:3128");
    expect(proxyFor(new URL("http://api.example/v1"), s)).toBe("http://p2:8080");
    expect(
      proxySettingsFrom({ http_proxy: "http://a:1", HTTP_PROXY: "http://b:2" }).httpProxy,
    ).toBe("http://a:1");
  });

  it.each<[string, string, boolean]>([
    ["*", "https://any.example", true],
    ["example.com", "https://api.example.com", true],
    [".example.com", "https://example.com", true],
    ["example.com", "https://notexample.com", false],
    ["127.0.0.1", "http://127.0.0.1:8080", true],
    ["10.0.0.0/8", "http://10.1.2.3", true],
    ["10.0.0.0/8", "http://11.1.2.3", false],
    ["localhost:8080", "http://localhost:8080", true],
    ["localhost:8080", "http://localhost:9090", false],
    ["[::1]", "http://[::1]:80", true],
    ["a.example, b.example", "https://b.example", true],
  ])("NO_PROXY %j for %s: bypassed %s", (noProxy, url, expected) => {
    expect(bypassed(new URL(url), noProxy)).toBe(expected);
  });
});

describe("--rate-limit", () => {
  it.each([
    ["250/s", 250],
    ["600/m", 10],
    ["1.5/s", 1.5],
  ])("reads %s as %d per second", (text, perSecond) => {
    expect(parseRate(text)).toBe(perSecond);
  });
  it.each(["0/s", "-1/s", "250", "fast", "250/h"])("refuses %j", (text) => {
    expect(parseRate(text)).toBeUndefined();
  });

  it("spaces requests evenly, over every limiter sharing its state", async () => {
    const a = new RateLimiter(200);
    const b = new RateLimiter(200, a.shared);
    const started = performance.now();
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).take()));
    // 40 slots at 5 ms apart: the last starts ~195 ms after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });
});

describe("the pace under throttling", () => {
  it("halves what is in flight and paces below what was sent at a throttled answer, then recovers", () => {
    const gate = new AdaptiveGate(16);
    for (let i = 0; i < 100; i++) gate.acquire();
    for (let i = 0; i < 100; i++) gate.release();
    const t = performance.now();
    gate.throttled(t);
    expect(gate.limit).toBe(8);
    expect(gate.rate).toBeGreaterThan(0);
    const paced = gate.rate as number;
    gate.throttled(t + 10); // one burst of 429s is one signal
    expect(gate.limit).toBe(8);
    for (let ms = 300; ms <= 3300; ms += 100) gate.answered(t + ms);
    expect(gate.rate as number).toBeGreaterThan(paced * 2);
    expect(gate.limit).toBeGreaterThan(8);
  });
});
