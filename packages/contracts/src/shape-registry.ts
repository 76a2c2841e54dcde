import { z } from "zod";
import { NOT_SHOWN, type NotShown } from "./primitives.ts";
import {
  ClusteringRules,
  CreateSchemaField,
  CreateSchemaRequest,
  SchemaPermissions,
  UserPublishRequest,
} from "./shapes.ts";

/** Areas of the spec's "Named data shapes" list, as it labels them. */
export const SHAPE_AREAS = [
  "OAuth",
  "User management",
  "Login and apps",
  "Automation",
  "Push",
  "Groups",
  "RBAC",
  "Datastore",
  "MFA",
  "OIDC",
] as const;
/** The area of the spec a named shape belongs to. */
export type ShapeArea = (typeof SHAPE_AREAS)[number];

/** One named shape of the spec: its zod schema (real or explicitly opaque) and where it is used. */
export interface RegisteredShape {
  readonly name: string;
  readonly area: ShapeArea;
  /** true when the spec does not show the fields: the schema accepts any JSON value. */
  readonly opaque: boolean;
  readonly schema: z.ZodType;
  readonly deprecated: boolean;
}

// The names exactly as the spec lists them, by area.
const NAMES: { readonly [A in ShapeArea]: readonly string[] } = {
  OAuth: [
    "TokenPasswordRequest",
    "TokenProviderCredentialsRequest",
    "TokenProviderAuthorizationCodeRequest",
    "TokenLdapCredentialsRequest",
    "TokenUserIdRequest",
    "TokenClientCredentialsRequest",
    "TokenRefreshTokenRequest",
    "TokenRevokeRequest",
    "DeviceResponse",
    "UserDeviceRelation",
    "UserResponse",
    "TokenAppResponse",
  ],
  "User management": [
    "UserWithProfile",
    "UserProfile",
    "ResetPasswordTokenRequest",
    "UserUpdate",
    "ResetPasswordTokenResponse",
    "ResetPasswordEmailRequest",
    "ResetPasswordRequest",
    "UserDataResponse",
    "EmailConfirmationRequest",
    "UserDataUpdate",
    "EmailConfirmationTokenRequest",
    "EmailConfirmationTokenResponse",
    "UserCredentialsResponse",
    "UserCredential",
    "UserCredentialCreate",
    "MacAddressCreate",
    "MacAddress",
    "UserGroupsResponse",
    "UserGroup",
    "UserRolesResponse",
    "UserRole",
    "UserReviewableAccessRequestsResponse",
    "ReviewableAccessRequest",
    "UserAuthorizedAppsResponse",
    "AuthorizedApp",
    "ClusteringFeaturesResponse",
  ],
  "Login and apps": [
    "LoginInfoResponse",
    "SignInResponse",
    "SignInCreate",
    "OAuth1ProviderCredentials",
    "OAuth2ProviderCredentials",
    "OIDCProviderCredentials",
    "UserLogin",
    "ConnectionInfoResponse",
    "LoginApp",
    "LoginAppsResponse",
    "LoginAppCreate",
    "LoginAppUpdate",
    "SocialApp",
    "ClusteringRules",
  ],
  Automation: ["TriggerEventRequest"],
  Push: [
    "DeviceCreateRequest",
    "DeviceCreateResponse",
    "DevicePublishRequest",
    "AppPublishRequest",
    "UserPublishRequest",
    "Device",
    "DeviceCreate",
  ],
  Groups: [
    "GroupCreate",
    "GroupUpdate",
    "GroupUserCreate",
    "GroupRolesResponse",
    "GroupRoleCreate",
    "GroupRole",
    "GroupParentGroupsResponse",
    "GroupParentGroupCreate",
    "GroupParentGroup",
    "GroupUsersResponse",
    "GroupUser",
    "GroupsResponse",
    "GroupChildGroupsResponse",
    "GroupChildGroup",
    "GroupManagerGroupsResponse",
    "GroupManagerGroup",
    "GroupManagerGroupCreate",
    "GroupManagedGroupsResponse",
    "GroupManagedGroup",
  ],
  RBAC: [
    "RolesResponse",
    "AccessRequestsResponse",
    "AccessRequest",
    "AccessRequestCreate",
    "AccessRequestUpdate",
    "Role",
    "AccessRequestCommentsResponse",
    "AccessRequestComment",
    "AccessRequestCommentCreate",
    "RoleCreate",
    "RoleUpdate",
    "LoginUser",
    "RoleUsersResponse",
    "RoleUser",
    "Group",
    "RoleUserCreate",
    "RoleGroupsResponse",
    "RoleGroup",
    "AccessRequestReviewsResponse",
    "AccessRequestReview",
    "AccessRequestReviewCreate",
    "AccessRequestEventsResponse",
    "AccessRequestEvent",
    "AccessRequestReviewersResponse",
    "AccessRequestReviewer",
    "AccessRequestReviewerCreate",
  ],
  Datastore: [
    "SchemasResponse",
    "Schema",
    "SchemaField",
    "CreateSchemaRequest",
    "CreateSchemaField",
    "SchemaPermissions",
    "UpdateSchemaRequest",
    "ObjectsResponse",
    "DatastoreObject",
    "CreateObjectRequest",
    "SearchObjectsRequest",
    "UpdateObjectRequest",
  ],
  MFA: [
    "UsersResponse",
    "UserCreateResponse",
    "User",
    "TokenRequestUserId",
    "TokenRequestUsername",
    "UserCreate",
    "CallbackRequest",
    "ValidationResponse",
    "ValidationAttempt",
    "Factor",
    "AuthenticatorCreate",
    "AuthenticatorResponse",
    "ChallengeRequest",
    "ChallengeResponse",
    "AuthenticatorVerify",
    "AuthenticatorVerifyResponse",
    "AuthenticatorDetail",
    "LoginChallengeRequest",
    "LoginChallengeResponse",
    "LoginValidateRequest",
    "LoginValidateResponse",
    "FIDO2Challenge",
    "FIDO2Options",
    "FIDO2RelyingParty",
    "FIDO2User",
    "FIDO2PubKeyCredParam",
    "FIDO2Credential",
    "FIDO2AuthenticatorSelection",
  ],
  OIDC: [
    "PaginatedResponse",
    "TokenRequest",
    "UserInfoResponse",
    "AddressClaim",
    "LogoutRequest",
    "RevokeRequest",
    "TokenResponse",
    "ErrorResponse",
    "DetailedError",
  ],
};

/** The five named shapes whose fields the spec tabulates. */
const TABULATED: Readonly<Record<string, z.ZodType>> = {
  CreateSchemaRequest,
  CreateSchemaField,
  SchemaPermissions,
  UserPublishRequest,
  ClusteringRules,
};

// Shapes of deprecated operations (clustering rules; the user clustering-features operation).
const DEPRECATED = new Set(["ClusteringRules", "ClusteringFeaturesResponse"]);

/** An explicit "fields not shown" schema: any JSON value, documented as opaque — never a guess. */
export function opaqueShape(name: string): z.ZodType {
  return z
    .unknown()
    .meta({ id: name, description: `${name}: fields ${NOT_SHOWN} in the spec (opaque).` });
}

/** Every named data shape of the spec (154 names), keyed by name. */
export const shapeRegistry: ReadonlyMap<string, RegisteredShape> = new Map(
  SHAPE_AREAS.flatMap((area) =>
    NAMES[area].map((name): [string, RegisteredShape] => {
      const tabulated = TABULATED[name];
      return [
        name,
        {
          name,
          area,
          opaque: tabulated === undefined,
          schema: tabulated ?? opaqueShape(name),
          deprecated: DEPRECATED.has(name),
        },
      ];
    }),
  ),
);

/** Shape groups the spec mentions without naming them. */
export const unnamedShapeGroups: readonly {
  readonly area: ShapeArea;
  readonly text: string;
  readonly names: NotShown;
  readonly deprecated: true;
}[] = [
  {
    area: "User management",
    text: "deprecated social-network and client-record request and response shapes",
    names: NOT_SHOWN,
    deprecated: true,
  },
];
