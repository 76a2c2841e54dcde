import { RULES } from "@idp/contracts";
import { flagsHelp, wrapText } from "@idp/contracts/cli";
import { FLAGS, GROUP_TITLES } from "./config/flags.ts";
import { OPT_IN } from "./plan.ts";
import { CONFORMANCE_CHECKS } from "./rules/index.ts";
import { VERSION } from "./version.ts";

const wrap = (head: string, text: string) => wrapText(head, text, 100);

/** `idp-verify --help`: every option with its default and environment, and every check id. */
export function helpText(): string {
  const out: string[] = [
    `idp-verify ${VERSION}: verify an IDP provider against its pacts (Pact's own verifier) and the`,
    "property-based conformance checks of rules R1-R8, and R9 and R10 on request",
    "(docs/spec/conformance.md).",
    "",
    "Usage: idp-verify [--provider-url URL] [options]",
    "",
  ];
  out.push(...flagsHelp(FLAGS, GROUP_TITLES, 100));
  out.push("Checks (--checks takes ids or prefixes such as R1, R4.valid-accepted, pact):");
  const idWidth = Math.max(...CONFORMANCE_CHECKS.map((c) => c.id.length)) + 2;
  for (const c of CONFORMANCE_CHECKS) {
    const needs = c.needs.length
      ? " [needs --provider-states-url]"
      : OPT_IN.has(c.rule)
        ? ` [opt-in: only with --checks ${c.rule}]`
        : "";
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
