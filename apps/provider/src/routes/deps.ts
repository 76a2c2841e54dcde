import type { Store } from "../db.ts";
import type { PushSender } from "../outbox-sender.ts";

export interface RouteDeps {
  readonly store: Store;
  readonly sender: PushSender;
  /** A request body must arrive within this many ms once its headers have (0: no limit). */
  readonly bodyTimeoutMs: number;
}
