import { Type } from 'typebox'
import { COMPONENT, DateTimeSchema, nullableDateTime } from '../../platform/http/schemas.js'
import { OrgParams, Role, Uuid } from '../orgs/schemas.js'
import { MIN_PASSWORD_LENGTH } from '../orgs/service.js'

const Email = Type.String({ format: 'email', maxLength: 254 })
/** Text that ends up in an email's headers (a display name): a line break there would start a header of its own. */
export const SingleLine = (options: { maxLength: number; minLength?: number; description?: string }) =>
  Type.String({ ...options, pattern: '^[^\\r\\n]*$' })
const Password = Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 200 })
const InvitationToken = Type.String({ minLength: 1, maxLength: 200 })

export const SessionSchema = Type.Object(
  {
    user: Type.Object({ id: Uuid, email: Type.String(), name: Type.String() }, { additionalProperties: false }),
    organizations: Type.Array(
      Type.Object({ id: Uuid, name: Type.String(), slug: Type.String(), role: Role }, { additionalProperties: false }),
      { description: 'The organizations the user is a member of, oldest first.' },
    ),
    csrf_token: Type.String({ description: 'Send it in `X-CSRF-Token` with every POST, PATCH and DELETE of this session.' }),
  },
  { [COMPONENT]: 'AppSession', additionalProperties: false, description: 'The signed-in user, their organizations, and the session\u2019s CSRF token.' },
)

export const LoginBody = Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false })

export const ChangePasswordBody = Type.Object(
  { current_password: Type.String({ minLength: 1, maxLength: 200 }), new_password: Password },
  { additionalProperties: false },
)

export const InvitationSchema = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    role: Role,
    expires_at: DateTimeSchema,
    accepted_at: nullableDateTime(),
    revoked_at: nullableDateTime(),
    created_at: DateTimeSchema,
  },
  { [COMPONENT]: 'AppInvitation', additionalProperties: false },
)

export const CreatedInvitationSchema = Type.Object(
  {
    ...InvitationSchema.properties,
    token: Type.String({ description: `The invitation's token, shown once: the invitee accepts with it (POST /app/api/invitations/accept).` }),
    email_status: Type.Union([Type.Literal('sent'), Type.Literal('failed'), Type.Literal('not_configured')], {
      description:
        'Whether the link was emailed to the invitee: `sent` (the mail server took it), `failed` (it refused or did not answer; the server\u2019s log says why), or `not_configured` (the server has no `SMTP_URL`). Unless `sent`, send the link yourself.',
    }),
  },
  { [COMPONENT]: 'AppCreatedInvitation', additionalProperties: false },
)

export const InviteBody = Type.Object({ email: Email, role: Role }, { additionalProperties: false })

export const InvitationParams = Type.Object({ org: OrgParams.properties.org, id: Uuid })

export const InvitationPreviewSchema = Type.Object(
  {
    email: Type.String(),
    role: Role,
    organization_name: Type.String(),
    existing_user: Type.Boolean({ description: 'The email has an account: accepting takes its password, and the name is not used.' }),
    expires_at: DateTimeSchema,
  },
  { [COMPONENT]: 'AppInvitationPreview', additionalProperties: false },
)

export const InvitationTokenBody = Type.Object({ token: InvitationToken }, { additionalProperties: false })

export const AcceptInvitationBody = Type.Object(
  { token: InvitationToken, password: Password, name: Type.Optional(SingleLine({ maxLength: 200 })) },
  { additionalProperties: false },
)

export const InstanceSchema = Type.Object(
  {
    first_sign_in_pending: Type.Boolean({
      description: 'No one has signed in to this server yet: the owner login that the first start printed in the server\u2019s log is the way in.',
    }),
    email_configured: Type.Boolean({
      description: 'The server sends email (`SMTP_URL` is set): invitations are emailed, and a forgotten password can be reset by a link sent to its address.',
    }),
    exact_totals_up_to: Type.Integer({
      minimum: 1,
      description:
        'A full-text list counts its matches up to this many (`LIST_EXACT_TOTAL_UP_TO`); past it, its `total` is an estimate (`total_exact: false`), which the library shows as "1,000+ assets".',
    }),
  },
  { [COMPONENT]: 'AppInstance', additionalProperties: false, description: 'Facts about this server for the web app\u2019s screens; nothing secret, nobody\u2019s data.' },
)

export const PasswordResetRequestBody = Type.Object({ email: Email }, { additionalProperties: false })

export const PasswordResetBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the emailed link (what follows `#token=`).' }), new_password: Password },
  { additionalProperties: false },
)
