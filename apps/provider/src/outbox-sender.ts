import type { PushNotificationData } from "@idp/contracts";
import type { Device, Store } from "./db.ts";

/** One notification for one device of a login user. */
export interface PushDelivery {
  readonly userId: string;
  readonly device: Device;
  readonly payload: PushNotificationData;
}

/**
 * Sends push notifications. The reference provider never talks to FCM/APNs; an embedder can pass
 * its own sender (e.g. to assert what was sent). A throw answers 500: the fault is the server's.
 */
export interface PushSender {
  send(deliveries: readonly PushDelivery[]): void | Promise<void>;
}

/** A push waiting in the outbox to be delivered. */
export interface OutboxRow {
  readonly id: number;
  readonly userId: string;
  readonly deviceId: number;
  readonly platform: string;
  readonly token: string;
  readonly payload: unknown;
}

/** The default sender: one outbox row per device, all in one durable transaction. */
export function createOutboxSender(store: Store): PushSender {
  return {
    send(deliveries) {
      const now = new Date().toISOString();
      store.transaction(() => {
        const insert = store.statement(
          `INSERT INTO push_outbox (user_id, device_id, platform, token, payload, created_at)
           VALUES (?, ?, ?, ?, ?, ?)`,
        );
        for (const d of deliveries) {
          insert.run(
            d.userId,
            d.device.id,
            d.device.platform,
            d.device.token,
            JSON.stringify(d.payload),
            now,
          );
        }
      });
    },
  };
}

/** Outbox rows, oldest first (for tests and operators). */
export function readOutbox(store: Store, userId?: string): OutboxRow[] {
  const rows =
    userId === undefined
      ? store.statement("SELECT * FROM push_outbox ORDER BY id").all()
      : store.statement("SELECT * FROM push_outbox WHERE user_id = ? ORDER BY id").all(userId);
  return rows.map((row) => ({
    id: Number(row.id),
    userId: String(row.user_id),
    deviceId: Number(row.device_id),
    platform: String(row.platform),
    token: String(row.token),
    payload: JSON.parse(String(row.payload)) as unknown,
  }));
}
