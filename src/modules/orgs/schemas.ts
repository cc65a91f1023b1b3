import { Type } from 'typebox'
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
  { assets: Type.Integer(), bytes: Type.Integer(), max_assets: Limit, max_bytes: Limit },
  { additionalProperties: false, description: "The plan's usage: assets and bytes stored, against the plan's limits." },
)

export const OrganizationWithRoleSchema = Type.Object(
  { ...OrganizationSchema.properties, role: Role, usage: UsageSchema, ai: OrganizationAiStatusSchema },
  {
    [COMPONENT]: 'AppOrganizationWithRole',
    additionalProperties: false,
    description: 'The organization, the signed-in user\u2019s role in it, its plan usage, and what the server can do for its AI setting.',
  },
)

export const UpdateOrganizationBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })), ai_enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
)

export const MemberSchema = Type.Object(
  { user_id: Uuid, email: Type.String(), name: Type.String(), role: Role, joined_at: DateTimeSchema },
  { [COMPONENT]: 'AppMember', additionalProperties: false },
)
