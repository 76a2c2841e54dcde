// The reports of real runs against hand-written providers (@idp/fault-providers): JUnit that CI
// reporters render (names never repeat the classname, wall times), the HTML page's structure (what
// a browser shows of it is test/reports-browser.test.ts), the documented cells and --require-cells.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detailedOperations } from "@idp/contracts";
import { type RunningProvider, startHandProvider } from "@idp/fault-providers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CELLS_CHECK_ID } from "../src/report/cells.ts";
import { ruleSentence } from "../src/report/format.ts";
import { anchorOf } from "../src/report/html.ts";
import { caseNames } from "../src/report/junit.ts";
import type { VerifyReport } from "../src/results.ts";
import { CONFORMANCE_CHECKS } from "../src/rules/index.ts";
import { against, type CliRun, CREDENTIALS, runVerify } from "./support/run.ts";
import { assertWellFormedXml } from "./support/xml.ts";

interface Reports extends CliRun {
  readonly report: VerifyReport;
  readonly junit: string;
  readonly html: string;
}

const dirs: string[] = [];
const providers: RunningProvider[] = [];

async function withReports(
  options: Parameters<typeof startHandProvider>[0],
  extra: readonly string[],
  flags: { readonly states?: boolean; readonly runs?: number } = {},
): Promise<Reports> {
  const provider = await startHandProvider(options);
  providers.push(provider);
  const dir = mkdtempSync(join(tmpdir(), "idp-reports-"));
  dirs.push(dir);
  const run = await runVerify(
    against(
      provider,
      [
        ...extra,
        "--report",
        `json=${join(dir, "r.json")}`,
        "--report",
        `junit=${join(dir, "r.xml")}`,
        "--report",
        `html=${join(dir, "r.html")}`,
      ],
      { runs: flags.runs ?? 30, seed: 7, ...(flags.states === false ? { states: false } : {}) },
    ),
  );
  const read = (f: string) => readFileSync(join(dir, f), "utf8");
  return {
    ...run,
    report: JSON.parse(read("r.json")) as VerifyReport,
    junit: read("r.xml"),
    html: read("r.html"),
  };
}

let failing: Reports;
let passing: Reports;
let noStates: Reports;
beforeAll(async () => {
  failing = await withReports(
    {
      credentials: CREDENTIALS,
      faults: ["auth-wrong-error", "no-404-403", "broken-error-body", "wrong-status"],
    },
    ["--require-cells"],
  );
  passing = await withReports({ credentials: CREDENTIALS }, ["--require-cells"]);
  noStates = await withReports({ credentials: CREDENTIALS }, [], { states: false });
}, 120_000);
afterAll(async () => {
  await Promise.all(providers.map((p) => p.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Case {
  readonly suite: string;
  readonly classname: string;
  readonly name: string;
  readonly time: number;
  readonly body: string;
}

/** Test cases and suites of a JUnit file (attribute values unescaped). */
function parseJunit(xml: string) {
  const unxml = (s: string) =>
    s
      .replaceAll("&quot;", '"')
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
  const suites = [
    ...xml.matchAll(
      /<testsuite name="([^"]*)" tests="(\d+)"[^>]* time="([\d.]+)"[^>]*>([\s\S]*?)<\/testsuite>/g,
    ),
  ].map((m) => ({
    name: unxml(m[1] as string),
    tests: Number(m[2]),
    time: Number(m[3]),
    body: m[4] as string,
  }));
  const cases: Case[] = suites.flatMap((s) =>
    [
      ...s.body.matchAll(
        /<testcase classname="([^"]*)" name="([^"]*)" time="([\d.]+)"(?:\/>|>([\s\S]*?)<\/testcase>)/g,
      ),
    ].map((m) => ({
      suite: s.name,
      classname: unxml(m[1] as string),
      name: unxml(m[2] as string),
      time: Number(m[3]),
      body: m[4] ?? "",
    })),
  );
  return { suites, cases, unxml };
}

describe("the JUnit report", () => {
  it("is well-formed XML with a suite per kind and a case per check", () => {
    for (const r of [failing, passing, noStates]) {
      assertWellFormedXml(r.junit);
      const { suites, cases } = parseJunit(r.junit);
      expect(suites.map((s) => s.name)).toEqual(["idp-verify pact", "idp-verify conformance"]);
      expect(cases.length).toBe(r.report.checks.length + r.report.leftOut.length);
      for (const s of suites) expect(s.tests).toBe(cases.filter((c) => c.suite === s.name).length);
    }
  });

  it("never repeats the classname in a case's name: pacts by description, checks by id under their rule", () => {
    const { cases } = parseJunit(failing.junit);
    for (const c of cases) {
      expect(c.name.startsWith(`${c.classname}.`), c.name).toBe(false);
      expect(c.name).not.toBe(c.classname);
    }
    const pact = cases.filter((c) => c.suite === "idp-verify pact");
    expect(new Set(pact.map((c) => c.classname))).toEqual(new Set(["pact"]));
    expect(pact.map((c) => c.name)).toEqual(
      failing.report.checks.filter((c) => c.kind === "pact").map((c) => c.title),
    );
    const conformance = cases.filter((c) => c.suite === "idp-verify conformance");
    for (const c of conformance) {
      const check = failing.report.checks.find((x) => x.id === c.name);
      expect(c.classname).toBe(
        `conformance.${check?.id === CELLS_CHECK_ID ? "cells" : check?.rule}`,
      );
    }
    // Several consumers: the consumer goes into the name, so two versions' cases stay apart.
    const check = {
      id: "pact.x",
      kind: "pact",
      title: "t",
      consumer: { name: "web", version: "2" },
    } as const;
    expect(caseNames(check, true)).toEqual({ classname: "pact", name: "t (web 2)" });
    expect(caseNames(check, false)).toEqual({ classname: "pact", name: "t" });
  });

  it("gives each failure its first line as message and every detail in the body", () => {
    const { cases, unxml } = parseJunit(failing.junit);
    const failures = cases.filter((c) => c.body.includes("<failure"));
    const failed = failing.report.checks.filter((c) => c.status === "failed");
    expect(failures.length).toBe(failed.length);
    for (const c of failures) {
      const check = failed.find((x) => x.id === c.name || x.title === c.name);
      const message = unxml(/<failure message="([^"]*)"/.exec(c.body)?.[1] ?? "");
      expect(message).not.toMatch(/\n/);
      expect(message).toBe(check?.failure?.message.split("\n")[0]);
      const details = unxml(/<failure [^>]*>([\s\S]*)<\/failure>/.exec(c.body)?.[1] ?? "");
      if (check?.failure?.curl) expect(details).toContain(`curl:     ${check.failure.curl}`);
      if (check?.failure?.exchange) expect(details).toContain(check.failure.exchange.request.url);
    }
  });

  it("times suites by the kind's wall time (parallel checks never add up) and cases by their own", () => {
    for (const r of [failing, passing]) {
      const { suites, cases } = parseJunit(r.junit);
      const total = r.report.durationMs / 1000;
      for (const s of suites) {
        const own = cases.filter((c) => c.suite === s.name);
        expect(s.time, s.name).toBeLessThanOrEqual(total);
        expect(s.time, s.name).toBeGreaterThanOrEqual(Math.max(...own.map((c) => c.time)) - 0.001);
      }
      // The conformance checks run at once: their times add up to more than the suite's wall time.
      const conformance = cases.filter((c) => c.suite === "idp-verify conformance");
      const sum = conformance.reduce((t, c) => t + c.time, 0);
      expect(sum).toBeGreaterThan(suites[1]?.time ?? Number.POSITIVE_INFINITY);
      for (const c of r.report.checks) {
        const tc = cases.find((x) => x.name === c.id || x.name === c.title);
        expect(tc?.time, c.id).toBeCloseTo(c.durationMs / 1000, 3);
      }
    }
  });

  it("marks left-out checks skipped, with what would enable them", () => {
    const { cases, unxml } = parseJunit(noStates.junit);
    const left = noStates.report.leftOut;
    expect(left.length).toBeGreaterThan(0);
    for (const l of left) {
      const c = cases.find((x) => x.name === l.id || `pact.${x.name}` === l.id);
      const skipped = unxml(/<skipped message="([^"]*)"\/>/.exec(c?.body ?? "")?.[1] ?? "");
      expect(skipped, l.id).toBe(
        `not checked: ${l.reason}${l.enabledBy ? ` (needs ${l.enabledBy})` : ""}`,
      );
    }
  });

  it("marks a check stopped by the time limit as an error", async () => {
    const r = await withReports(
      { credentials: CREDENTIALS },
      ["--checks", "R6", "--max-duration", "1", "--concurrency", "1"],
      { runs: 1_000_000 },
    );
    assertWellFormedXml(r.junit);
    const { cases, unxml } = parseJunit(r.junit);
    const check = r.report.checks.find((c) => c.id === "R6.no-5xx");
    expect(check?.status).toBe("incomplete");
    const body = cases.find((c) => c.name === "R6.no-5xx")?.body ?? "";
    expect(unxml(/<error message="([^"]*)" type="incomplete">/.exec(body)?.[1] ?? "")).toBe(
      `incomplete: ${check?.reason}`,
    );
  });
});

describe("the HTML report", () => {
  const sectionOf = (html: string, id: string) => {
    const start = html.indexOf(`<section id="${id}">`);
    return start < 0 ? "" : html.slice(start, html.indexOf("</section>", start));
  };

  it("lists the findings first, each linking to its failures, each failure anchored once", () => {
    const { html, report } = failing;
    const findings = sectionOf(html, "findings");
    expect(html.indexOf('<section id="findings">')).toBeLessThan(
      html.indexOf('<section id="failures">'),
    );
    for (const f of report.findings)
      for (const id of f.checks) expect(findings).toContain(`href="#${anchorOf(id)}"`);
    for (const c of report.checks.filter((x) => x.status === "failed"))
      expect(html.split(`id="${anchorOf(c.id)}"`).length - 1, c.id).toBe(1);
    // The first failure shown is the first finding's example.
    const first = /<article class="failure" id="([^"]+)"/.exec(sectionOf(html, "failures"))?.[1];
    expect(first).toBe(anchorOf(report.findings[0]?.example ?? ""));
  });

  it("is one page with nothing loaded from elsewhere, and never breaks words", () => {
    for (const { html } of [failing, passing]) {
      expect(html).not.toMatch(/<link\b|<img\b|<iframe\b|\bsrc=|@import|url\(/i);
      expect(html).not.toMatch(/href="(?!#|\.\/|\.\.\/)/);
      expect(html).not.toContain("break-all");
      expect(html).toMatch(/pre\.cmd\{white-space:pre;overflow-x:auto\}/);
    }
  });

  it("shows a pact failure as a diff by path, never as Pact's JSON", () => {
    const { html, report } = failing;
    const check = report.checks.find((c) => c.id.includes("403 for a login user of another"));
    const a = html.indexOf(`id="${anchorOf(check?.id ?? "")}"`);
    const article = html.slice(a, html.indexOf("</article>", a));
    const diff = article.slice(article.indexOf('<table class="diff">'));
    expect(diff).toMatch(
      /<tr><td>status<\/td><td class="exp"><pre class="wrap">403<\/pre><\/td><td class="act"><pre class="wrap">200<\/pre>/,
    );
    expect(diff).toMatch(
      /<td>header <code>Content-Type<\/code><\/td><td class="exp"><pre class="wrap">application\/json<\/pre>/,
    );
    // The expected body, indented, key by key.
    expect(diff).toContain("  &quot;error&quot;: &quot;forbidden&quot;,\n");
    expect(article).not.toMatch(/mismatches|&quot;type&quot;:&quot;|\{&quot;error&quot;/);
  });

  it("puts request and response side by side with the commands in copyable blocks", () => {
    const { html, report } = failing;
    const check = report.checks.find((c) => c.id === "R1.auth.no-header");
    const a = html.indexOf(`id="${anchorOf("R1.auth.no-header")}"`);
    const article = html.slice(a, html.indexOf("</article>", a));
    expect(article).toMatch(
      /<div class="pair"><div><h4>Request[^<]*<\/h4><pre class="wrap">(POST|PUT) \/v1\//,
    );
    expect(article).toMatch(/<\/pre><\/div><div><h4>Response[^<]*<\/h4><pre class="wrap">401 · /);
    const esc = (s: string) =>
      s
        .replaceAll("&", "&amp;")
        .replaceAll("<", "&lt;")
        .replaceAll(">", "&gt;")
        .replaceAll('"', "&quot;");
    expect(article).toContain(
      `<pre class="cmd" id="curl-0">${esc(check?.failure?.curl ?? "-")}</pre>`,
    );
    expect(article).toContain(`>${esc(check?.failure?.replay ?? "-")}</pre>`);
    expect(article).toContain(
      `<b>Rule:</b> A request without an Authorization header gets 401 with error &quot;authentication_failed&quot;, whatever its body.`,
    );
    expect(article).toMatch(/seed 7 · path [\d:]+ · shrunk \d+ times/);
  });

  it("keeps passing rows short: no pact path repeated, title, runs and time", () => {
    const { html, report } = passing;
    const path = report.pactSources[0] as string;
    expect(path).toMatch(/pacts/);
    expect(html.split(path).length - 1).toBe(1);
    const all = html.slice(html.indexOf('<details id="all-checks" open>'));
    for (const c of report.checks.filter((x) => x.kind === "pact"))
      expect(all).toMatch(
        new RegExp(
          `<td>${c.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</td><td class="num"></td><td class="num">\\d+\\.\\d s</td><td class="small"></td>`,
        ),
      );
    expect(html).not.toContain('<section id="findings">');
  });

  it("colours the grid: documented seen, documented not seen, undocumented", () => {
    const grid = sectionOf(failing.html, "statuses");
    expect(grid).toContain(
      'title="pushToUserDevices 403: documented, no request got it">not seen</td>',
    );
    expect(grid).toMatch(
      /<td class="undoc" title="createSchema 202: NOT documented, seen \d+ times">/,
    );
    expect(grid).toMatch(
      /<td class="doc" title="pushToUserDevices 401: documented, seen \d+ times">/,
    );
  });
});

describe("rules in plain words", () => {
  it("reads every check as a sentence", () => {
    for (const info of CONFORMANCE_CHECKS) {
      const s = ruleSentence({ id: info.id, kind: "conformance", title: info.title });
      expect(s, info.id).toMatch(/^[A-Z][^\n]*\.$/);
      expect(s, info.id).not.toMatch(/>=|when credentials are|\bno header\b/);
    }
    for (const c of failing.report.checks.filter((x) => x.kind === "pact"))
      expect(ruleSentence(c)).toMatch(/^The pact of idp-toolkit-consumer expects: [A-Z].*\.$/);
  });
});

describe("documented cells", () => {
  it("marks every documented (operation, status) cell seen or not, from the statuses answered", () => {
    for (const { report } of [failing, passing]) {
      const expected = Object.entries(detailedOperations).flatMap(([op, o]) =>
        o.documentedStatuses.map((status) => ({
          operation: op,
          status,
          seen: (report.grid[op]?.[String(status)] ?? 0) > 0,
        })),
      );
      expect(
        [...report.cells].sort((a, b) =>
          `${a.operation}${a.status}`.localeCompare(`${b.operation}${b.status}`),
        ),
      ).toEqual(
        expected.sort((a, b) =>
          `${a.operation}${a.status}`.localeCompare(`${b.operation}${b.status}`),
        ),
      );
    }
    expect(passing.report.cells.filter((c) => c.status < 500).every((c) => c.seen)).toBe(true);
  });

  it("--require-cells: a provider that never answers 403 or 404 fails, naming the cells", () => {
    const { report, code, stdout } = failing;
    const check = report.checks.find((c) => c.id === CELLS_CHECK_ID);
    expect(code).toBe(1);
    expect(check?.status).toBe("failed");
    expect(check?.failure?.message).toBe(
      "cells: no request of the run got 2 documented client-error statuses: pushToUserDevices 403, pushToUserDevices 404",
    );
    expect(check?.failure?.source).toEqual({
      source: "spec",
      ref: expect.stringMatching(/^service-interface\.md: /),
    });
    expect(stdout).toContain("pushToUserDevices 403");
    // A conforming provider's run passes it.
    expect(passing.code, passing.stdout).toBe(0);
    expect(passing.report.checks.find((c) => c.id === CELLS_CHECK_ID)?.status).toBe("passed");
  });

  it("--require-cells without provider states cannot see 403/404; it does not go with --shard", async () => {
    const run = await runVerify([
      "--provider-url",
      "http://127.0.0.1:9/v1",
      "--username",
      "u",
      "--password",
      "p",
      "--require-cells",
      "--shard",
      "1/2",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /--require-cells judges the statuses of a whole run; it does not go with --shard/,
    );
  });
});
