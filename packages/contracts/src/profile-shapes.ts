import type { z } from "zod";
import type { ProfileErrorBody } from "./error-items.ts";
import type { ClusteringRules, CreateSchemaRequest, UserPublishRequest } from "./shapes.ts";

/** The shapes a profile reads payloads and error bodies with. */
export interface ProfileShapes {
  readonly CreateSchemaRequest: z.ZodType<CreateSchemaRequest>;
  readonly UserPublishRequest: z.ZodType<UserPublishRequest>;
  readonly ClusteringRules: z.ZodType<ClusteringRules>;
  /** Follows the profile's `errorsItems`: `errors` elements may be objects under some profiles. */
  readonly ErrorBody: z.ZodType<ProfileErrorBody>;
}
