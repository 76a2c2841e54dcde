// A failure records how to rebuild its Authorization header as curl arguments whose secrets come
// from $IDP_USERNAME / $IDP_PASSWORD (never the header itself). A replay file needs the same header
// in JavaScript: this reads the few shell forms the verifier writes into an expression, which the
// replay file evaluates with the same variables. A form it does not know is refused, never guessed.

/** A string built from the environment, as the shell would build it. */
export type AuthExpr =
  | { readonly k: "lit"; readonly v: string }
  | { readonly k: "env"; readonly name: string }
  /** `${VAR:start:length}` (the generator cuts with String.prototype.slice, in UTF-16 units). */
  | { readonly k: "slice"; readonly of: AuthExpr; readonly start: number; readonly length: number }
  | { readonly k: "concat"; readonly parts: readonly AuthExpr[] }
  /** `... | base64 | tr -d '\n'`: base64 of the UTF-8 bytes. */
  | { readonly k: "base64"; readonly of: AuthExpr }
  /** `... | tr 'a-zA-Z' 'A-Za-z'`: every letter in the other case. */
  | { readonly k: "swapCase"; readonly of: AuthExpr };

/** How a replay sets Authorization: not at all, to a value built from the environment, or cannot. */
export type ReplayAuth =
  | { readonly kind: "none" }
  | { readonly kind: "header"; readonly value: AuthExpr }
  | { readonly kind: "unknown"; readonly reason: string };

const ENV_NAMES = new Set(["IDP_USERNAME", "IDP_PASSWORD"]);

class Unsupported extends Error {}

/** A tiny reader of the shell words the verifier writes (quotes, $VAR, ${VAR:o:n}, $(pipeline)). */
class Reader {
  i = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }

  get peek(): string | undefined {
    return this.s[this.i];
  }

  skipSpace(): void {
    while (this.peek === " ") this.i++;
  }

  expect(text: string): void {
    if (!this.s.startsWith(text, this.i))
      throw new Unsupported(`expected ${JSON.stringify(text)} at ${this.i}`);
    this.i += text.length;
  }

  /** One word: quoted and unquoted parts up to a space, `|` or `)`. */
  word(): AuthExpr {
    const parts: AuthExpr[] = [];
    for (;;) {
      const c = this.peek;
      if (c === undefined || c === " " || c === "|" || c === ")") break;
      if (c === "'") {
        const end = this.s.indexOf("'", this.i + 1);
        if (end < 0) throw new Unsupported("unclosed '");
        parts.push({ k: "lit", v: this.s.slice(this.i + 1, end) });
        this.i = end + 1;
      } else if (c === '"') {
        this.i++;
        parts.push(...this.doubleQuoted());
      } else if (c === "$") parts.push(this.dollar());
      else if (c === "\\") {
        parts.push({ k: "lit", v: this.s[this.i + 1] ?? "" });
        this.i += 2;
      } else {
        parts.push({ k: "lit", v: c });
        this.i++;
      }
    }
    if (parts.length === 0) throw new Unsupported(`no word at ${this.i}`);
    return concat(parts);
  }

  doubleQuoted(): AuthExpr[] {
    const parts: AuthExpr[] = [];
    for (;;) {
      const c = this.peek;
      if (c === undefined) throw new Unsupported('unclosed "');
      if (c === '"') {
        this.i++;
        return parts;
      }
      if (c === "$") parts.push(this.dollar());
      else if (c === "\\" && '"\\$`'.includes(this.s[this.i + 1] ?? "")) {
        parts.push({ k: "lit", v: this.s[this.i + 1] as string });
        this.i += 2;
      } else {
        parts.push({ k: "lit", v: c });
        this.i++;
      }
    }
  }

  dollar(): AuthExpr {
    this.expect("$");
    if (this.peek === "(") {
      this.i++;
      const value = this.pipeline();
      this.skipSpace();
      this.expect(")");
      return value;
    }
    if (this.peek === "{") {
      const m = /^\{([A-Z_][A-Z0-9_]*):(\d+):(\d+)\}/.exec(this.s.slice(this.i));
      if (!m) throw new Unsupported(`only \${VAR:start:length} is read`);
      this.i += m[0].length;
      return { k: "slice", of: env(m[1] as string), start: Number(m[2]), length: Number(m[3]) };
    }
    const m = /^[A-Z_][A-Z0-9_]*/.exec(this.s.slice(this.i));
    if (!m) throw new Unsupported(`a $ without a variable at ${this.i}`);
    this.i += m[0].length;
    return env(m[0]);
  }

  /** `printf FMT ARG... [| base64 | tr -d '\n'] [| tr 'a-zA-Z' 'A-Za-z']` */
  pipeline(): AuthExpr {
    const commands: AuthExpr[][] = [];
    for (;;) {
      const words: AuthExpr[] = [];
      this.skipSpace();
      while (this.peek !== undefined && this.peek !== "|" && this.peek !== ")") {
        words.push(this.word());
        this.skipSpace();
      }
      commands.push(words);
      if (this.peek !== "|") break;
      this.i++;
    }
    const [first, ...rest] = commands;
    const names = commands.map((c) => literal(c[0]));
    if (!first || names[0] !== "printf") throw new Unsupported("a pipeline must start with printf");
    let value = printf(first.slice(1));
    for (const [n, command] of rest.entries()) {
      const args = command.map(literal);
      if (names[n + 1] === "base64" && args.length === 1) value = { k: "base64", of: value };
      else if (args.join(" ") === "tr -d \\n") continue;
      else if (args.join(" ") === "tr a-zA-Z A-Za-z") value = { k: "swapCase", of: value };
      else throw new Unsupported(`unknown command ${args.join(" ")}`);
    }
    return value;
  }
}

function env(name: string): AuthExpr {
  if (!ENV_NAMES.has(name)) throw new Unsupported(`unknown variable ${name}`);
  return { k: "env", name };
}

/** Flattens nested concatenations and joins adjacent literals. */
function concat(parts: readonly AuthExpr[]): AuthExpr {
  const out: AuthExpr[] = [];
  for (const p of parts.flatMap((x) => (x.k === "concat" ? x.parts : [x]))) {
    const last = out[out.length - 1];
    if (p.k === "lit" && last?.k === "lit") out[out.length - 1] = { k: "lit", v: last.v + p.v };
    else out.push(p);
  }
  return out.length === 1 ? (out[0] as AuthExpr) : { k: "concat", parts: out };
}

function literal(e: AuthExpr | undefined): string {
  if (e?.k !== "lit") throw new Unsupported("a command name or option must be literal");
  return e.v;
}

/** printf with a literal format of `%s` and plain text only. */
function printf(args: readonly AuthExpr[]): AuthExpr {
  const [format, ...values] = args;
  const pieces = literal(format).split("%s");
  if (pieces.some((p) => p.includes("%") || p.includes("\\")))
    throw new Unsupported("only %s formats are read");
  if (pieces.length - 1 !== values.length) throw new Unsupported("printf arguments do not match");
  const parts: AuthExpr[] = [];
  pieces.forEach((p, n) => {
    parts.push({ k: "lit", v: p });
    if (n < values.length) parts.push(values[n] as AuthExpr);
  });
  return concat(parts.filter((p) => !(p.k === "lit" && p.v === "")));
}

const PREFIX = "Authorization: ";

/**
 * The Authorization a failure's request carried, from its `curlAuth` (curl arguments). The pact
 * guard records a pact's own value as `<the value in the pact>`: that one cannot be rebuilt.
 */
export function replayAuthOf(curlAuth: readonly string[]): ReplayAuth {
  if (curlAuth.length === 0) return { kind: "none" };
  try {
    if (curlAuth.length !== 2) throw new Unsupported(`${curlAuth.length} curl arguments`);
    const [flag, arg] = curlAuth as [string, string];
    const value = new Reader(arg);
    const expr = value.word();
    if (value.i !== arg.length) throw new Unsupported(`text after the word: ${arg.slice(value.i)}`);
    if (flag === "-u") return { kind: "header", value: concat([lit("Basic "), b64(expr)]) };
    if (flag !== "-H") throw new Unsupported(`curl option ${flag}`);
    const parts = expr.k === "concat" ? expr.parts : [expr];
    const head = parts[0];
    if (head?.k !== "lit" || !head.v.toLowerCase().startsWith(PREFIX.toLowerCase()))
      throw new Unsupported("not an Authorization header");
    const rest = concat([lit(head.v.slice(PREFIX.length)), ...parts.slice(1)]);
    if (rest.k === "lit" && /<[^>]*>/.test(rest.v))
      return {
        kind: "unknown",
        reason: `the request's Authorization was not recorded (${rest.v})`,
      };
    return { kind: "header", value: rest };
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    return {
      kind: "unknown",
      reason: `cannot rebuild the Authorization of ${curlAuth.join(" ")}: ${e.message}`,
    };
  }
}

const lit = (v: string): AuthExpr => ({ k: "lit", v });
const b64 = (of: AuthExpr): AuthExpr => ({ k: "base64", of });

/** What the generator does for "the right one in other letter case" (rules/auth.ts). */
export const swapCase = (s: string): string =>
  [...s].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join("");

/** The value an expression has for the given environment. */
export function evaluate(e: AuthExpr, envOf: (name: string) => string): string {
  switch (e.k) {
    case "lit":
      return e.v;
    case "env":
      return envOf(e.name);
    case "slice":
      return evaluate(e.of, envOf).slice(e.start, e.start + e.length);
    case "concat":
      return e.parts.map((p) => evaluate(p, envOf)).join("");
    case "base64":
      return Buffer.from(evaluate(e.of, envOf), "utf8").toString("base64");
    case "swapCase":
      return swapCase(evaluate(e.of, envOf));
  }
}

/** The expression as JavaScript source, for a replay file that defines `env` and `swapCase`. */
export function toJs(e: AuthExpr): string {
  switch (e.k) {
    case "lit":
      return JSON.stringify(e.v);
    case "env":
      return `env(${JSON.stringify(e.name)})`;
    case "slice":
      return `${toJs(e.of)}.slice(${e.start}, ${e.start + e.length})`;
    case "concat":
      return e.parts.map(toJs).join(" + ");
    case "base64":
      return `Buffer.from(${toJs(e.of)}, "utf8").toString("base64")`;
    case "swapCase":
      return `swapCase(${toJs(e.of)})`;
  }
}

/** Whether the expression reads the environment (the replay then needs IDP_USERNAME/IDP_PASSWORD). */
export const readsEnv = (e: AuthExpr): boolean =>
  e.k === "env" || (e.k === "concat" ? e.parts.some(readsEnv) : e.k !== "lit" && readsEnv(e.of));

/**
 * The words of a shell command made of literal (quoted or plain) words only (the first `max` of
 * them, whatever follows); undefined otherwise.
 */
export function shellWords(command: string, max = Number.POSITIVE_INFINITY): string[] | undefined {
  const r = new Reader(command);
  const words: string[] = [];
  try {
    r.skipSpace();
    while (r.peek !== undefined && words.length < max) {
      const w = r.word();
      if (w.k !== "lit") return undefined;
      words.push(w.v);
      r.skipSpace();
    }
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
  return words;
}
