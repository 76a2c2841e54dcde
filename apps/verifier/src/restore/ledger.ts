import { isPathSegmentName } from "@idp/contracts";
import type { OutgoingRequest } from "../http/exchange.ts";
import type { HttpResult } from "../http/send.ts";

/** What `--cleanup` may remove: the schemas this run created, and those it created but cannot name. */
export interface Created {
  /** Acknowledged with 201, and `getSchema` did not find them before (conformance.md §8). */
  readonly names: readonly string[];
  /** Created, but a name that cannot be one path segment ("", ".", ".."): never removable. */
  readonly unremovable: readonly string[];
  /**
   * Acknowledged with 201, but the provider did not answer whether it held the name before
   * (why, per name): maybe a teammate's, so never removed, and said so.
   */
  readonly unconfirmed: readonly { readonly name: string; readonly reason: string }[];
}

/** What a ledger's question found: held or not, or no answer (why). */
export type HeldBefore = boolean | { readonly unanswered: string };

/** The name of a create-schema request's body, if it is one. */
function schemaName(body: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  try {
    const parsed = JSON.parse(body) as { schema?: { name?: unknown } };
    return typeof parsed?.schema?.name === "string" ? parsed.schema.name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `--cleanup`'s record of the run's writes (conformance.md §8). Before the first create of a name,
 * the provider is asked (`getSchema`) whether it already holds it; a name it did not hold and then
 * acknowledged with 201 is one this run created, and the only kind `--cleanup` removes. A name the
 * provider held before is never removed, whatever this run sent.
 */
export class WriteLedger {
  readonly #probe: (name: string) => Promise<HeldBefore>;
  /** Name -> whether the provider held it before this run's first create of it. */
  readonly #heldBefore = new Map<string, Promise<HeldBefore>>();
  readonly #heldBeforeKnown = new Map<string, HeldBefore>();
  readonly #created = new Set<string>();
  readonly #unremovable = new Set<string>();
  readonly #unconfirmed = new Map<string, string>();

  /** `held(name)` asks the provider (`getSchema`) whether it holds a schema of that name. */
  constructor(held: (name: string) => Promise<HeldBefore>) {
    this.#probe = held;
  }

  /** Before a request is sent: a create of a name not asked about yet waits for the question. */
  before(req: OutgoingRequest): Promise<void> | undefined {
    if (req.operation !== "createSchema") return undefined;
    const name = schemaName(req.body);
    if (name === undefined || !isPathSegmentName(name)) return undefined;
    let held = this.#heldBefore.get(name);
    if (!held) {
      held = this.#probe(name).then((h) => {
        this.#heldBeforeKnown.set(name, h);
        return h;
      });
      this.#heldBefore.set(name, held);
    }
    return held.then(() => undefined);
  }

  /** After the answer: a 201 to a create of a name the provider did not hold is this run's. */
  after(req: OutgoingRequest, raw: HttpResult): void {
    if (req.operation !== "createSchema" || raw.kind !== "response" || raw.status !== 201) return;
    const name = schemaName(req.body);
    if (name === undefined) return;
    if (!isPathSegmentName(name)) {
      this.#unremovable.add(name);
      return;
    }
    const held = this.#heldBeforeKnown.get(name);
    if (held === false) this.#created.add(name);
    else if (typeof held === "object") this.#unconfirmed.set(name, held.unanswered);
  }

  get created(): Created {
    return {
      names: [...this.#created],
      unremovable: [...this.#unremovable],
      // A name asked about once and created later in the run is this run's after all.
      unconfirmed: [...this.#unconfirmed]
        .filter(([name]) => !this.#created.has(name))
        .map(([name, reason]) => ({ name, reason })),
    };
  }
}

/** The created names of several ledgers (threads) as one. */
export function mergeCreated(all: readonly Created[]): Created {
  const names = new Set(all.flatMap((c) => c.names));
  const unconfirmed = new Map<string, string>();
  for (const c of all)
    for (const u of c.unconfirmed) if (!names.has(u.name)) unconfirmed.set(u.name, u.reason);
  return {
    names: [...names],
    unremovable: [...new Set(all.flatMap((c) => c.unremovable))],
    unconfirmed: [...unconfirmed].map(([name, reason]) => ({ name, reason })),
  };
}

/** Nothing created. */
export const NONE_CREATED: Created = { names: [], unremovable: [], unconfirmed: [] };
