import type { Answer } from "../http/client.ts";
import type { Case, SentBody } from "../rules/types.ts";

/** Names longer than this are not kept: a retry under a fresh name as long as them always exists. */
const MAX_KEPT_NAME = 256;
/** How much of a body is read for its name before the whole body is parsed. */
const HEAD = 4096;
const NAME_FIRST = '{"schema":{"name":"';

/**
 * The schema names a check's own cases created (a 201 to a create with good credentials), by the
 * index of the case, so a later case's 422 for one of them is never a failure (conformance.md §1: a
 * provider may refuse a name it holds, and `""` has no other name as long as it). Only cases before
 * the one judged count, whatever was in flight: the verdict is the one a run sending one case at a
 * time gives (a provider whose answers do not depend on order shrinks to the same counterexample).
 */
export class EarlierCreates {
  /** Name -> the smallest index of a case whose create of it got 201. */
  readonly #created = new Map<string, number>();
  /** Cases sent and not yet answered, by index. */
  readonly #pending = new Map<number, Promise<void>>();

  /**
   * Before case `index` is sent: the callback its answer goes to (undefined when it creates
   * nothing). Shrinking numbers its cases on from the last case of the run, one after another.
   */
  sending(index: number, c: Case): ((answer: Answer | undefined) => void) | undefined {
    if (c.operation !== "createSchema" || c.auth.variant !== "valid") return undefined;
    let settle = () => {};
    this.#pending.set(
      index,
      new Promise<void>((resolve) => {
        settle = resolve;
      }),
    );
    return (answer) => {
      if (answer?.raw.kind === "response" && answer.raw.status === 201) {
        const name = schemaNameOf(c.body);
        if (name !== undefined && name.length <= MAX_KEPT_NAME)
          this.#created.set(name, Math.min(index, this.#created.get(name) ?? index));
      }
      this.#pending.delete(index);
      settle();
    };
  }

  /** Whether a case before `index` got 201 for `name` (cases before it still unanswered are waited for). */
  async before(name: string, index: number): Promise<boolean> {
    const earlier = [...this.#pending].filter(([i]) => i < index).map(([, p]) => p);
    if (earlier.length > 0) await Promise.all(earlier);
    return (this.#created.get(name) ?? Infinity) < index;
  }

  /** Before shrinking a failure at `index`: what cases from it on created no longer counts. */
  forgetFrom(index: number): void {
    for (const [name, i] of this.#created) if (i >= index) this.#created.delete(name);
  }
}

/**
 * The `schema.name` of a create body: parsed whole when it is small, else read from its head when
 * it starts with it (as a generated body does, whatever its size); undefined otherwise (a large
 * body is never parsed whole here: a 422 for its name gets R4's retry under a fresh name).
 */
export function schemaNameOf(body: SentBody): string | undefined {
  const { head, whole } = headOf(body);
  if (whole) return nameFromJson(head);
  if (!head.startsWith(NAME_FIRST)) return undefined;
  // The string literal after `"name":`: up to the first quote no backslash escapes.
  for (let i = NAME_FIRST.length; i < head.length; i++) {
    if (head[i] === "\\") i++;
    else if (head[i] === '"') return JSON.parse(head.slice(NAME_FIRST.length - 1, i + 1)) as string;
  }
  return undefined; // a name longer than the head: never kept
}

function headOf(body: SentBody): { head: string; whole: boolean } {
  if (body.bytes)
    return {
      head: body.bytes.toString("utf8", 0, Math.min(body.bytes.length, HEAD)),
      whole: body.bytes.length <= HEAD,
    };
  if (body.pieces) {
    let head = "";
    for (const piece of body.pieces) {
      head += piece.slice(0, HEAD - head.length);
      if (head.length >= HEAD) return { head, whole: false };
    }
    return { head, whole: true };
  }
  return { head: body.text.slice(0, HEAD), whole: body.text.length <= HEAD };
}

function nameFromJson(text: string): string | undefined {
  try {
    const name = (JSON.parse(text) as { schema?: { name?: unknown } } | null)?.schema?.name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}
