import type { Store } from "../db.ts";
import type { PushSender } from "../outbox-sender.ts";

export interface RouteDeps {
  readonly store: Store;
  readonly sender: PushSender;
}
