// my-backend's payload builders: what its code sends to the IDP.
import type { CreateSchemaRequest, UserPublishRequest } from "@idp/contracts";

export interface OrderShipped {
  readonly orderId: string;
  readonly carrier: string;
  /** How long the phone vibrates, in seconds. */
  readonly vibrateSeconds: number;
  readonly unread: number;
}

// PLANT_BUG plants a bug the toolkit must catch (pnpm packages:smoke): `1` a fractional
// vibrate_duration, `typo` a misspelt optional key (uniqe), `duplicate` a second interaction for
// one cell with the same description (test/idp.pact.test.ts).
// biome-ignore lint/suspicious/noUndeclaredEnvVars: a standalone project's test switch, not a turbo task
const PLANT_BUG = process.env.PLANT_BUG;
const vibrateMs = (seconds: number) => (PLANT_BUG === "1" ? seconds * 1.5 : seconds * 1000);

export function orderShippedPush(e: OrderShipped): UserPublishRequest {
  return {
    data: {
      message: `Order ${e.orderId} is on its way with ${e.carrier}`,
      title: "Order shipped",
      small_icon: "ic_shipping",
      vibrate: e.vibrateSeconds > 0,
      vibrate_duration: vibrateMs(e.vibrateSeconds),
      auto_cancel: true,
      big_style: false,
      activity_class: "com.mybackend.OrdersActivity",
      badge: e.unread,
      sound: "default",
    },
  };
}

export function ordersSchema(name: string): CreateSchemaRequest {
  return {
    schema: {
      name,
      fields: [
        PLANT_BUG === "typo"
          ? ({ name: "order_id", type: "string", uniqe: true } as never)
          : { name: "order_id", type: "string", unique: true },
        { name: "shipped_at", type: "date_time" },
      ],
      permissions: { write_protected: true, read_protected: true },
    },
  };
}
