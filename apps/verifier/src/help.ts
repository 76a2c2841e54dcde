import { RULES } from "@idp/contracts";
import { GROUP_TITLES, OPTIONS, type OptionSpec } from "./config/options.ts";
import { CONFORMANCE_CHECKS } from "./rules/index.ts";
import { VERSION } from "./version.ts";

const flag = (o: OptionSpec) =>
  `--${o.name}${o.short ? `, -${o.short}` : ""}${o.value ? ` ${o.value}` : ""}`;

const WIDTH = 100;

/** Words of `text` in lines of at most WIDTH, the first after `head`, the rest under it. */
function wrap(head: string, text: string): string[] {
  const lines: string[] = [];
  let line = head;
  for (const word of text.split(" ")) {
    if (line.length + word.length + 1 > WIDTH && line.trim() !== "" && line.length > head.length) {
      lines.push(line.trimEnd());
      line = " ".repeat(head.length);
    }
    line += (line.length > head.length ? " " : "") + word;
  }
  lines.push(line.trimEnd());
  return lines;
}

/** `idp-verify --help`: every option with its default and environment, and every check id. */
export function helpText(): string {
  const out: string[] = [
    `idp-verify ${VERSION}: verify an IDP provider against its pacts (Pact's own verifier) and the`,
    "property-based conformance checks of rules R1-R8 (docs/spec/conformance.md).",
    "",
    "Usage: idp-verify [--provider-url URL] [options]",
    "",
  ];
  const width = Math.max(...OPTIONS.map((o) => flag(o).length)) + 2;
  for (const [group, title] of Object.entries(GROUP_TITLES)) {
    out.push(`${title}:`);
    for (const o of OPTIONS.filter((x) => x.group === group)) {
      const extra = [
        o.defaultText ? `default: ${o.defaultText}` : "",
        o.env ? `env ${o.env.join(", ")}` : "",
      ].filter(Boolean);
      out.push(
        ...wrap(
          `  ${flag(o).padEnd(width)}`,
          `${o.description}${extra.length ? ` (${extra.join("; ")})` : ""}`,
        ),
      );
    }
    out.push("");
  }
  out.push("Checks (--checks takes ids or prefixes such as R1, R4.valid-accepted, pact):");
  const idWidth = Math.max(...CONFORMANCE_CHECKS.map((c) => c.id.length)) + 2;
  for (const c of CONFORMANCE_CHECKS) {
    const needs = c.needs.length ? ` [needs --provider-states-url]` : "";
    out.push(
      ...wrap(
        `  ${c.id.padEnd(idWidth)}`,
        `${c.rule} (${RULES[c.rule].source}): ${c.title}${needs}`,
      ),
    );
  }
  out.push(
    `  ${"pact.<description>".padEnd(idWidth)}each pact interaction, judged by Pact's verifier`,
  );
  out.push(
    "",
    "Exit status: 0 every selected check ran to completion and passed; 1 the provider broke a rule",
    "or pact; 2 the verification could not be carried out (bad arguments or profile, unreadable or",
    "empty pacts, report path not writable, provider unreachable or not at that base address, a",
    "provider state without a handler, a check stopped by --max-duration).",
    "",
    "Examples:",
    "  pnpm verify                                            the embedded reference provider",
    "  IDP_USERNAME=u IDP_PASSWORD=p idp-verify --provider-url https://host/v1 \\",
    "      --provider-states-url https://host/_pact/provider-states --report html=report.html",
    "  idp-verify --checks R5 --seed 42 --runs 500                replay or deepen one rule",
    "",
  );
  return out.join("\n");
}
