// Credentials are removed where they are placed and scrubbed from what the provider sends back,
// before anything is serialized: never a substring replace over finished JSON, XML or HTML.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { afterEach, describe, expect, it } from "vitest";
import { runVerify } from "./support/run.ts";
import { assertWellFormedXml } from "./support/xml.ts";

let provider: RunningProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function runWithReports(args: string[], env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "idp-redaction-"));
  const files = { json: join(dir, "r.json"), junit: join(dir, "r.xml"), html: join(dir, "r.html") };
  const run = await runVerify(
    [
      ...args,
      "--report",
      `json=${files.json}`,
      "--report",
      `junit=${files.junit}`,
      "--report",
      `html=${files.html}`,
    ],
    env,
  );
  const read = (f: string) => readFileSync(f, "utf8");
  return { run, json: read(files.json), junit: read(files.junit), html: read(files.html) };
}

const b64 = (s: string) => Buffer.from(s).toString("base64");

describe("redaction by construction", () => {
  it("keeps every output whole with a one-letter password, and warns once", async () => {
    const credentials = { username: "u", password: "e" };
    provider = await startHandProvider({ credentials, faults: ["echo-authorization"] });
    const { run, json, junit, html } = await runWithReports(
      [
        "--provider-url",
        provider.baseUrl,
        "--provider-states-url",
        provider.statesUrl,
        "--runs",
        "20",
        "--seed",
        "3",
      ],
      { IDP_USERNAME: "u", IDP_PASSWORD: "e" },
    );
    expect(() => JSON.parse(json)).not.toThrow();
    expect(JSON.parse(json).tool.name).toBe("idp-verify");
    assertWellFormedXml(junit);
    expect(junit).toContain("<testsuites ");
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(run.stdout).toMatch(/^idp-verify \d+\.\d+\.\d+: http/);
    expect(run.stderr).toMatch(
      /^warning: the password is 1 character long, too short to remove safely/m,
    );
    expect(run.stderr.match(/too short to remove safely/g)).toHaveLength(1);
    // The encoded credentials are long enough to scrub, even with a one-letter password.
    for (const text of [json, junit, html, run.stdout, run.stderr])
      expect(text).not.toContain(b64("u:e"));
    expect(run.code).toBe(0);
  });

  it('leaks nothing of a password holding &<" to an echoing provider, in any variant sent', async () => {
    const credentials = { username: "ech&o<user", password: 'pa&ss<wo"rd-long' };
    // auth-wrong-error makes the 401s fail, so echoed answers end up in every report.
    provider = await startHandProvider({
      credentials,
      faults: ["echo-authorization", "auth-wrong-error"],
    });
    const { run, json, junit, html } = await runWithReports(
      [
        "--provider-url",
        provider.baseUrl,
        "--provider-states-url",
        provider.statesUrl,
        "--runs",
        "40",
        "--seed",
        "5",
        "--checks",
        "R1,R2,pact",
      ],
      { IDP_USERNAME: credentials.username, IDP_PASSWORD: credentials.password },
    );
    const secretForms = [
      credentials.password,
      `${credentials.username}:${credentials.password}`,
      b64(`${credentials.username}:${credentials.password}`),
      b64(`${credentials.username}${credentials.password}`),
      // as JSON, XML and HTML would escape it
      JSON.stringify(credentials.password).slice(1, -1),
      credentials.password
        .replaceAll("&", "&amp;")
        .replaceAll("<", "&lt;")
        .replaceAll('"', "&quot;"),
    ];
    for (const text of [json, junit, html, run.stdout, run.stderr])
      for (const form of secretForms) expect(text).not.toContain(form);
    // The echo did reach the reports (scrubbed), so this test can fail.
    expect(json).toContain("<redacted>");
    assertWellFormedXml(junit);
    expect(run.code).toBe(1);
  });

  it("never prints user-info given in the provider or provider-states URL", async () => {
    const credentials = { username: "url-user", password: "url-pass-9876" };
    provider = await startHandProvider({ credentials, faults: ["echo-authorization"] });
    const withInfo = (u: string) => u.replace("http://", "http://url-user:url-pass-9876@");
    const { run, json, junit, html } = await runWithReports([
      "--provider-url",
      withInfo(provider.baseUrl),
      "--provider-states-url",
      withInfo(provider.statesUrl),
      "--runs",
      "10",
      "--seed",
      "1",
    ]);
    for (const text of [json, junit, html, run.stdout, run.stderr]) {
      expect(text).not.toContain("url-pass-9876");
      expect(text).not.toContain("url-user:");
      expect(text).not.toContain(b64("url-user:url-pass-9876"));
    }
    expect(run.code).toBe(0);
  });
});
