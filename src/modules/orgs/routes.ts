import { Type } from 'typebox'
import type { Config } from '../../config.js'
import type { Organization } from '../../platform/db/schema.js'
import type { App } from '../../platform/http/app-type.js'
import {
  appNoContent,
  appProblemResponses,
  appResponse,
  DataListSchema,
  COMPONENT,
  DateTimeSchema,
  iso,
  nullableDateTime,
  problemResponses,
} from '../../platform/http/schemas.js'
import type { OrgService } from './service.js'
import { SESSION_COOKIE, type SessionGuard } from './session-guard.js'

const Email = Type.String({ format: 'email', maxLength: 254 })
const Password = Type.String({ minLength: 10, maxLength: 200 })
const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')])
const OrgParams = Type.Object({ org: Type.String() })
const Uuid = Type.String({ format: 'uuid' })

const OrganizationSchema = Type.Object(
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

const OrganizationWithRoleSchema = Type.Object(
  { ...OrganizationSchema.properties, role: Role, usage: UsageSchema },
  {
    [COMPONENT]: 'AppOrganizationWithRole',
    additionalProperties: false,
    description: 'The organization, the signed-in user\u2019s role in it, and its plan usage.',
  },
)

const SessionSchema = Type.Object(
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

const MemberSchema = Type.Object(
  { user_id: Uuid, email: Type.String(), name: Type.String(), role: Role, joined_at: DateTimeSchema },
  { [COMPONENT]: 'AppMember', additionalProperties: false },
)

const InvitationSchema = Type.Object(
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

const CreatedInvitationSchema = Type.Object(
  {
    ...InvitationSchema.properties,
    token: Type.String({ description: `The invitation's token, shown once: the invitee accepts with it (POST /app/api/invitations/accept).` }),
  },
  { [COMPONENT]: 'AppCreatedInvitation', additionalProperties: false },
)

const InvitationToken = Type.String({ minLength: 1, maxLength: 200 })

const InvitationPreviewSchema = Type.Object(
  {
    email: Type.String(),
    role: Role,
    organization_name: Type.String(),
    existing_user: Type.Boolean({ description: 'The email has an account: accepting takes its password, and the name is not used.' }),
    expires_at: DateTimeSchema,
  },
  { [COMPONENT]: 'AppInvitationPreview', additionalProperties: false },
)

const SESSION_TAGS = ['app-session']
const ORG_TAGS = ['app-org']

function orgView(org: Organization) {
  return { id: org.id, name: org.name, slug: org.slug, plan: org.plan, ai_enabled: org.ai_enabled, created_at: iso(org.created_at) }
}

/** /app/api: the browser application's own endpoints, signed in with a session cookie, not part of v1. */
export function orgRoutes(app: App, deps: { orgs: OrgService; guard: SessionGuard; planLimits: Config['planLimits'] }): void {
  const { orgs, guard } = deps
  const sessionBody = sessionBodyFor(deps)

  app.post(
    '/app/api/logout',
    {
      config: { auth: { kind: 'session', role: 'user' } },
      schema: {
        operationId: 'appLogout',
        tags: SESSION_TAGS,
        summary: 'Sign out',
        description: 'Ends this session and clears its cookie.',
        response: { 204: appNoContent('Signed out.') },
      },
    },
    async (request, reply) => {
      await orgs.logout(request.cookies[SESSION_COOKIE]!)
      guard.clearSessionCookie(reply)
      return reply.code(204).send()
    },
  )

  app.get(
    '/app/api/session',
    {
      config: { auth: { kind: 'session', role: 'user' } },
      schema: {
        operationId: 'appGetSession',
        tags: SESSION_TAGS,
        summary: 'Describe the session',
        description: 'Who is signed in, their organizations and roles, and the CSRF token of this session.',
        response: { 200: appResponse('The session.', SessionSchema) },
      },
    },
    async (request) => {
      const user = request.sessionUser!
      return sessionBody(user, user.sessionId)
    },
  )

  app.get(
    '/app/api/orgs/:org',
    {
      config: { auth: { kind: 'session', role: 'member' } },
      schema: {
        operationId: 'appGetOrganization',
        tags: ORG_TAGS,
        summary: 'Fetch the organization',
        params: OrgParams,
        response: { 200: appResponse('The organization, with your role in it.', OrganizationWithRoleSchema) },
      },
    },
    async (request) => {
      const { organization, role } = request.membership!
      const limits = deps.planLimits[organization.plan] ?? {}
      const usage = {
        assets: organization.asset_count,
        bytes: Number(organization.byte_count),
        max_assets: limits.maxAssets ?? null,
        max_bytes: limits.maxBytes ?? null,
      }
      return { ...orgView(organization), role, usage }
    },
  )

  app.patch(
    '/app/api/orgs/:org',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appUpdateOrganization',
        tags: ORG_TAGS,
        summary: 'Change the organization\u2019s settings',
        description: 'Its name, and whether AI (semantic search) is on.',
        params: OrgParams,
        body: Type.Object(
          { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })), ai_enabled: Type.Optional(Type.Boolean()) },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: appResponse('The organization as changed.', OrganizationSchema) },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      return orgView(await orgs.updateSettings(organization.id, request.body))
    },
  )

  app.get(
    '/app/api/orgs/:org/members',
    {
      config: { auth: { kind: 'session', role: 'member' } },
      schema: {
        operationId: 'appListMembers',
        tags: ORG_TAGS,
        summary: 'List members',
        description: 'Everyone in the organization with their role, in the order they joined.',
        params: OrgParams,
        response: { 200: appResponse('The members.', DataListSchema(MemberSchema)) },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      const members = await orgs.listMembers(organization.id)
      return { data: members.map((member) => ({ ...member, joined_at: iso(member.joined_at) })) }
    },
  )

  app.post(
    '/app/api/orgs/:org/invitations',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appCreateInvitation',
        tags: ORG_TAGS,
        summary: 'Invite someone',
        description: 'An invitation for 7 days, used once; only owners invite owners. Emits `member.invited`.',
        params: OrgParams,
        body: Type.Object({ email: Email, role: Role }, { additionalProperties: false }),
        response: {
          201: appResponse('The invitation, with its token (shown once).', CreatedInvitationSchema),
          ...appProblemResponses({ role_not_allowed: 'an admin invites an owner' }),
        },
      },
    },
    async (request, reply) => {
      const { organization, role, user } = request.membership!
      const { invitation, token } = await orgs.invite(organization.id, { id: user.id, email: user.email, role }, request.body)
      return reply.code(201).send({ ...invitationView(invitation), token })
    },
  )

  app.get(
    '/app/api/orgs/:org/invitations',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appListInvitations',
        tags: ORG_TAGS,
        summary: 'List invitations',
        description: 'Every invitation of the organization, open or not, newest first.',
        params: OrgParams,
        response: { 200: appResponse('The invitations.', DataListSchema(InvitationSchema)) },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      return { data: (await orgs.listInvitations(organization.id)).map(invitationView) }
    },
  )

  app.delete(
    '/app/api/orgs/:org/invitations/:id',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appRevokeInvitation',
        tags: ORG_TAGS,
        summary: 'Revoke an invitation',
        description: 'Its token stops working.',
        params: Type.Object({ org: OrgParams.properties.org, id: Uuid }),
        response: { 204: appNoContent('Revoked.'), ...appProblemResponses({ not_found: 'no open invitation with this id in the organization' }) },
      },
    },
    async (request, reply) => {
      const { organization } = request.membership!
      await orgs.revokeInvitation(organization.id, request.params.id)
      return reply.code(204).send()
    },
  )
}

/** What the two sign-in endpoints answer besides a session. */
const SIGN_IN_PROBLEMS = {
  ...appProblemResponses({ cross_site_request: 'a browser sent it from another site (its `Origin` is not the application\u2019s)' }),
  ...problemResponses({ rate_limited: 'too many sign-in attempts from this address (`RATE_LIMIT_SIGN_IN` a minute); wait `Retry-After` seconds' }),
}

/**
 * POST /app/api/login and /app/api/invitations/lookup and /accept: the endpoints that take a password
 * or an invitation's token, kept in a scope of their own so they can be rate limited per IP.
 */
export function signInRoutes(app: App, deps: { orgs: OrgService; guard: SessionGuard }): void {
  const { orgs, guard } = deps
  const sessionBody = sessionBodyFor(deps)

  app.post(
    '/app/api/login',
    {
      config: { auth: { kind: 'public', bucket: 'sign-in', sameOrigin: true } },
      schema: {
        operationId: 'appLogin',
        tags: SESSION_TAGS,
        summary: 'Sign in',
        description: 'Starts a session: sets the `al_session` cookie and answers what `GET /app/api/session` does.',
        body: Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
        response: {
          200: appResponse('Signed in; the `al_session` cookie is set.', SessionSchema),
          ...appProblemResponses({ invalid_credentials: 'the email is unknown or the password wrong (the same answer, in about the same time)' }),
          ...SIGN_IN_PROBLEMS,
        },
      },
    },
    async (request, reply) => {
      const { session, user } = await orgs.login(request.body.email, request.body.password)
      guard.setSessionCookie(reply, session.token)
      return sessionBody(user, session.id)
    },
  )

  app.post(
    '/app/api/invitations/lookup',
    {
      config: { auth: { kind: 'public', bucket: 'sign-in', sameOrigin: true } },
      schema: {
        operationId: 'appLookUpInvitation',
        tags: SESSION_TAGS,
        summary: 'Look at an invitation before accepting it',
        description:
          'Whom an invitation is for, in which organization and with which role, and whether its email already has an account (then accepting takes that account\u2019s password). A POST so that the token stays out of URLs and logs. Changes nothing.',
        body: Type.Object({ token: InvitationToken }, { additionalProperties: false }),
        response: {
          200: appResponse('The invitation, still usable.', InvitationPreviewSchema),
          ...appProblemResponses({ invitation_not_found: true }),
          ...SIGN_IN_PROBLEMS,
        },
      },
    },
    async (request) => {
      const invitation = await orgs.invitationPreview(request.body.token)
      return { ...invitation, expires_at: iso(invitation.expires_at) }
    },
  )

  app.post(
    '/app/api/invitations/accept',
    {
      config: { auth: { kind: 'public', bucket: 'sign-in', sameOrigin: true } },
      schema: {
        operationId: 'appAcceptInvitation',
        tags: SESSION_TAGS,
        summary: 'Accept an invitation',
        description:
          'Joins the organization and starts a session, as signing in does. A new email becomes a user with this password (and `name`); an existing user gives their own password. Emits `member.joined`.',
        body: Type.Object(
          { token: InvitationToken, password: Password, name: Type.Optional(Type.String({ maxLength: 200 })) },
          { additionalProperties: false },
        ),
        response: {
          200: appResponse('Joined and signed in; the `al_session` cookie is set.', SessionSchema),
          ...appProblemResponses({
            invalid_credentials: 'the invited email is an existing user\u2019s, and the password is not theirs',
            invitation_not_found: true,
          }),
          ...SIGN_IN_PROBLEMS,
        },
      },
    },
    async (request, reply) => {
      const { user, session } = await orgs.acceptInvitation(request.body)
      guard.setSessionCookie(reply, session.token)
      return sessionBody(user, session.id)
    },
  )
}

function sessionBodyFor({ orgs, guard }: { orgs: OrgService; guard: SessionGuard }) {
  return async (user: { id: string; email: string; name: string }, sessionId: string) => ({
    user: { id: user.id, email: user.email, name: user.name },
    organizations: await orgs.userOrganizations(user.id),
    csrf_token: guard.csrfToken(sessionId),
  })
}

function invitationView(invitation: {
  id: string
  email: string
  role: string
  expires_at: Date
  accepted_at: Date | null
  revoked_at: Date | null
  created_at: Date
}) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    expires_at: iso(invitation.expires_at),
    accepted_at: iso(invitation.accepted_at),
    revoked_at: iso(invitation.revoked_at),
    created_at: iso(invitation.created_at),
  }
}
