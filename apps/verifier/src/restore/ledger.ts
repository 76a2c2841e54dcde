import { isPathSegmentName } from "@idp/contracts";
import type { OutgoingRequest } from "../http/exchange.ts";
import type { HttpResult } from "../http/send.ts";

/** What `--cleanup` may remove: the schemas this run created, and those it created but cannot name. */
export interface Created {
  /** Acknowledged with 201, and `getSchema` did not find them before (conformance.md §8). */
  readonly names: readonly string[];
  /** Created, but a name that cannot be one path segment ("", ".", ".."): never removable. */
  readonly unremovable: readonly string[];
}

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
  readonly #probe: (name: string) => Promise<boolean>;
  /** Name -> whether the provider held it before this run's first create of it. */
  readonly #heldBefore = new Map<string, Promise<boolean>>();
  readonly #heldBeforeKnown = new Map<string, boolean>();
  readonly #created = new Set<string>();
  readonly #unremovable = new Set<string>();

  /** `held(name)` asks the provider (`getSchema`) whether it holds a schema of that name. */
  constructor(held: (name: string) => Promise<boolean>) {
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
    if (!isPathSegmentName(name)) this.#unremovable.add(name);
    else if (this.#heldBeforeKnown.get(name) === false) this.#created.add(name);
  }

  get created(): Created {
    return { names: [...this.#created], unremovable: [...this.#unremovable] };
  }
}

/** The created names of several ledgers (threads) as one. */
export function mergeCreated(all: readonly Created[]): Created {
  return {
    names: [...new Set(all.flatMap((c) => c.names))],
    unremovable: [...new Set(all.flatMap((c) => c.unremovable))],
  };
}
