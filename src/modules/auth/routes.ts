import type { App } from '../../platform/http/app-type.js'
import { appNoContent, appProblemResponses, appResponse, DataListSchema, iso, problemResponses } from '../../platform/http/schemas.js'
import { OrgParams } from '../orgs/schemas.js'
import type { OrgService } from '../orgs/service.js'
import {
  AcceptInvitationBody,
  ChangePasswordBody,
  CreatedInvitationSchema,
  InvitationParams,
  InvitationPreviewSchema,
  InvitationSchema,
  InvitationTokenBody,
  InstanceSchema,
  InviteBody,
  LoginBody,
  SessionSchema,
} from './schemas.js'
import type { AuthService } from './service.js'
import { SESSION_COOKIE, type SessionGuard } from './session-guard.js'

const SESSION_TAGS = ['app-session']
/** Invitations are documented with the organization they invite into. */
const INVITATION_TAGS = ['app-org']

interface SessionDeps {
  auth: AuthService
  orgs: OrgService
  guard: SessionGuard
}

/**
 * POST /app/api/logout and GET /app/api/session: the signed-in browser's own session; GET /app/api/instance:
 * what the sign-in screen says about this server before there is one.
 */
export function sessionRoutes(app: App, deps: SessionDeps): void {
  const { auth, guard } = deps
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
      await auth.logout(request.cookies[SESSION_COOKIE]!)
      guard.clearSessionCookie(reply)
      return reply.code(204).send()
    },
  )

  app.post(
    '/app/api/password',
    {
      config: { auth: { kind: 'session', role: 'user' } },
      schema: {
        operationId: 'appChangePassword',
        tags: SESSION_TAGS,
        summary: 'Change your password',
        description:
          'Takes the current password, whose wrong guesses count against the account\u2019s sign-in limit (`RATE_LIMIT_SIGN_IN_ACCOUNT`). Ends the user\u2019s other sessions; this one stays signed in.',
        body: ChangePasswordBody,
        response: {
          204: appNoContent('Changed.'),
          ...appProblemResponses({ current_password_wrong: true }),
          ...problemResponses({ rate_limited: ACCOUNT_LIMITED }),
        },
      },
    },
    async (request, reply) => {
      await auth.changePassword(request.sessionUser!, request.body)
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
    '/app/api/instance',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        operationId: 'appGetInstance',
        tags: SESSION_TAGS,
        summary: 'Describe this server before signing in',
        description: 'Whether anyone has signed in yet, so the sign-in screen points a new server\u2019s owner to the login its first start printed.',
        response: { 200: appResponse('Facts about this server.', InstanceSchema) },
      },
    },
    async () => ({ first_sign_in_pending: await auth.firstSignInPending() }),
  )
}

/** /app/api/orgs/:org/invitations: owners and admins invite people into their organization. */
export function invitationRoutes(app: App, deps: { auth: AuthService }): void {
  const { auth } = deps

  app.post(
    '/app/api/orgs/:org/invitations',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appCreateInvitation',
        tags: INVITATION_TAGS,
        summary: 'Invite someone',
        description: 'An invitation valid for 7 days (INVITATION_TTL_DAYS on the server), used once; only owners invite owners. Emits `member.invited`.',
        params: OrgParams,
        body: InviteBody,
        response: {
          201: appResponse('The invitation, with its token (shown once).', CreatedInvitationSchema),
          ...appProblemResponses({ role_not_allowed: 'an admin invites an owner' }),
        },
      },
    },
    async (request, reply) => {
      const { organization, role, user } = request.membership!
      const { invitation, token } = await auth.invite(organization.id, { id: user.id, email: user.email, role }, request.body)
      return reply.code(201).send({ ...invitationView(invitation), token })
    },
  )

  app.get(
    '/app/api/orgs/:org/invitations',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appListInvitations',
        tags: INVITATION_TAGS,
        summary: 'List invitations',
        description: 'Every invitation of the organization, open or not, newest first.',
        params: OrgParams,
        response: { 200: appResponse('The invitations.', DataListSchema(InvitationSchema)) },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      return { data: (await auth.listInvitations(organization.id)).map(invitationView) }
    },
  )

  app.post(
    '/app/api/orgs/:org/invitations/:id/resend',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appResendInvitation',
        tags: INVITATION_TAGS,
        summary: 'Re-send an invitation',
        description:
          'A new token for an invitation not yet accepted or revoked, expired or not: the old one stops working, and it expires 7 days (INVITATION_TTL_DAYS) from now. Only owners re-send an owner\u2019s invitation. Emits `member.invited` again.',
        params: InvitationParams,
        response: {
          200: appResponse('The invitation, with its new token (shown once).', CreatedInvitationSchema),
          ...appProblemResponses({ role_not_allowed: 'an admin re-sends an invitation for an owner', not_found: 'no open invitation with this id in the organization' }),
        },
      },
    },
    async (request) => {
      const { organization, role, user } = request.membership!
      const { invitation, token } = await auth.resendInvitation(organization.id, { id: user.id, email: user.email, role }, request.params.id)
      return { ...invitationView(invitation), token }
    },
  )

  app.delete(
    '/app/api/orgs/:org/invitations/:id',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appRevokeInvitation',
        tags: INVITATION_TAGS,
        summary: 'Revoke an invitation',
        description: 'Its token stops working.',
        params: InvitationParams,
        response: { 204: appNoContent('Revoked.'), ...appProblemResponses({ not_found: 'no open invitation with this id in the organization' }) },
      },
    },
    async (request, reply) => {
      const { organization } = request.membership!
      await auth.revokeInvitation(organization.id, request.params.id)
      return reply.code(204).send()
    },
  )
}

const ACCOUNT_LIMITED = 'too many wrong passwords for this account (`RATE_LIMIT_SIGN_IN_ACCOUNT`), from any address; wait `Retry-After` seconds'

/** What the three sign-in endpoints (login, invitation lookup and accept) answer besides their own answer. */
const SIGN_IN_PROBLEMS = {
  ...appProblemResponses({ cross_site_request: 'a browser sent it from another site (its `Origin` is not the application\u2019s)' }),
  ...problemResponses({
    rate_limited: `too many sign-in attempts from this address (\`RATE_LIMIT_SIGN_IN\` a minute), or ${ACCOUNT_LIMITED}`,
  }),
}

/**
 * POST /app/api/login and /app/api/invitations/lookup and /accept: the endpoints that take a password
 * or an invitation's token, before there is a session; rate limited per IP and refused from another site.
 */
export function signInRoutes(app: App, deps: SessionDeps): void {
  const { auth, guard } = deps
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
        body: LoginBody,
        response: {
          200: appResponse('Signed in; the `al_session` cookie is set.', SessionSchema),
          ...appProblemResponses({ invalid_credentials: 'the email is unknown or the password wrong (the same answer, in about the same time)' }),
          ...SIGN_IN_PROBLEMS,
        },
      },
    },
    async (request, reply) => {
      const { session, user } = await auth.login(request.body.email, request.body.password)
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
        body: InvitationTokenBody,
        response: {
          200: appResponse('The invitation, still usable.', InvitationPreviewSchema),
          ...appProblemResponses({ invitation_not_found: true }),
          ...SIGN_IN_PROBLEMS,
        },
      },
    },
    async (request) => {
      const invitation = await auth.invitationPreview(request.body.token)
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
        body: AcceptInvitationBody,
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
      const { user, session } = await auth.acceptInvitation(request.body)
      guard.setSessionCookie(reply, session.token)
      return sessionBody(user, session.id)
    },
  )
}

function sessionBodyFor({ orgs, guard }: SessionDeps) {
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
