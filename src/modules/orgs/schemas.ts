import { Type } from 'typebox'
import { ListSchema, PaginationQuery } from '../../platform/http/pagination.js'
import { COMPONENT, DateTimeSchema } from '../../platform/http/schemas.js'
import { OrganizationAiStatusSchema } from '../search/schemas.js'

export const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')])
export const OrgParams = Type.Object({ org: Type.String() })
export const Uuid = Type.String({ format: 'uuid' })

export const OrganizationSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    slug: Type.String({ description: 'Names the organization in URLs.' }),
    plan: Type.String(),
    ai_enabled: Type.Boolean({ description: 'Whether asset texts go to the embedding provider for semantic search.' }),
    created_at: DateTimeSchema,
  },
  { [COMPONENT]: 'AppOrganization', additionalProperties: false },
)

const Limit = Type.Union([Type.Integer(), Type.Null()], { description: 'Null when the plan sets no limit.' })

const UsageSchema = Type.Object(
  {
    assets: Type.Integer({ description: 'Assets stored: live and in the trash.' }),
    trashed_assets: Type.Integer({ description: 'Of `assets`, those in the trash (a purge frees them).' }),
    bytes: Type.Integer({ description: 'Bytes of every version of every stored asset, live or in the trash.' }),
    max_assets: Limit,
    max_bytes: Limit,
  },
  { additionalProperties: false, description: "The plan's usage, counted as the plan counts it, against the plan's limits." },
)

export const OrganizationWithRoleSchema = Type.Object(
  {
    ...OrganizationSchema.properties,
    role: Role,
    usage: UsageSchema,
    ai: OrganizationAiStatusSchema,
    trash_retention_days: Type.Integer({
      minimum: 0,
      description: 'Days a deleted asset stays restorable in the trash on this server (`TRASH_RETENTION_DAYS`); 0: a delete purges at once and cannot be undone.',
    }),
    public_base_url: Type.String({
      format: 'uri',
      description: 'This server\u2019s address as it knows it (`PUBLIC_BASE_URL`): what API clients, the command line and MCP clients call (`/api/v1`, `/mcp`).',
    }),
  },
  {
    [COMPONENT]: 'AppOrganizationWithRole',
    additionalProperties: false,
    description: 'The organization, the signed-in user\u2019s role in it, its plan usage, what the server can do for its AI setting, and how long its trash keeps deleted assets.',
  },
)

export const UpdateOrganizationBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\r\\n]*\\S[^\\r\\n]*$' })), ai_enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
)

export const MemberSchema = Type.Object(
  { user_id: Uuid, email: Type.String(), name: Type.String(), role: Role, joined_at: DateTimeSchema },
  { [COMPONENT]: 'AppMember', additionalProperties: false },
)

export const MemberParams = Type.Object({ org: Type.String(), user_id: Uuid })

export const ChangeRoleBody = Type.Object({ role: Role }, { additionalProperties: false })

export const HandOverBody = Type.Object(
  { user_id: Type.String({ format: 'uuid', description: 'The member who becomes an owner.' }) },
  { additionalProperties: false },
)

export const MemberChangesQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false })

const Person = Type.Object(
  { user_id: Type.Union([Type.Null(), Uuid], { description: 'Null once the user no longer exists.' }), email: Type.String() },
  { additionalProperties: false },
)
const RoleOrNone = (description: string) => Type.Union([Type.Null(), Role], { description })

export const MemberChangeSchema = Type.Object(
  {
    id: Uuid,
    action: Type.Union([Type.Literal('removed'), Type.Literal('role_changed'), Type.Literal('ownership_transferred')], {
      description:
        '`removed`: the member left the organization; `role_changed`: they were given another role; `ownership_transferred`: the actor handed them ownership and became an admin.',
    }),
    actor: Person,
    member: Person,
    from_role: RoleOrNone("The member's role before."),
    to_role: RoleOrNone("The member's role after; null once removed."),
    created_at: DateTimeSchema,
  },
  { [COMPONENT]: 'AppMemberChange', additionalProperties: false, description: 'Who changed whose membership, how, and when.' },
)

export const MemberChangeListSchema = ListSchema(MemberChangeSchema, 'A page of member changes, newest first.')

export const JobParams = Type.Object({ org: Type.String(), name: Type.String({ maxLength: 100 }) })

export const DerivationCountsSchema = Type.Object(
  {
    name: Type.String({ description: 'The derivation: `thumbnails` or `embeddings`.' }),
    pending: Type.Integer({ description: 'Jobs queued and not yet claimed.' }),
    running: Type.Integer({ description: 'Jobs a runner holds now.' }),
    failed: Type.Integer({ description: 'Jobs whose last attempt failed, waiting for their retry; for thumbnails also the images that could not be decoded.' }),
    oldest_pending_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the longest-waiting pending job became due.' }),
    unavailable_reason: Type.Union([Type.Null(), Type.String()], {
      description:
        'Why this server cannot do this work at all, or null. For embeddings: `no_provider` (no embedding provider is configured) or `no_pgvector`; its jobs wait for the setting, and a retry cannot help them.',
    }),
  },
  { additionalProperties: false },
)

export const RetryOutcomeSchema = Type.Object(
  {
    name: Type.String(),
    queued: Type.Integer({ description: 'Jobs queued again: the failed ones and the missing ones.' }),
  },
  { additionalProperties: false },
)
