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
  PasswordResetBody,
  PasswordResetRequestBody,
  SessionSchema,
} from './schemas.js'
import type { PasswordResets } from './password-resets.js'
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

interface InstanceDeps extends SessionDeps {
  /** `SMTP_URL` is set: invitations are emailed and forgotten passwords reset by a link. */
  emailConfigured: boolean
  /** LIST_EXACT_TOTAL_UP_TO, which the library screen says a full-text list has more than once its total is estimated. */
  exactTotalsUpTo: number
}

/**
 * POST /app/api/logout and GET /app/api/session: the signed-in browser's own session; GET /app/api/instance:
 * what the sign-in screen says about this server before there is one.
 */
export function sessionRoutes(app: App, deps: InstanceDeps): void {
  const { auth, guard, emailConfigured, exactTotalsUpTo } = deps
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
        description:
          'Whether anyone has signed in yet, so the sign-in screen points a new server\u2019s owner to the login its first start printed; whether the server sends email (invitations, reset links); and up to how many matches a full-text list is counted exactly.',
        response: { 200: appResponse('Facts about this server.', InstanceSchema) },
      },
    },
    async () => ({ first_sign_in_pending: await auth.firstSignInPending(), email_configured: emailConfigured, exact_totals_up_to: exactTotalsUpTo }),
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
        description:
          'An invitation valid for 7 days (INVITATION_TTL_DAYS on the server), used once; only owners invite owners. Emits `member.invited`. When the server sends email (`SMTP_URL`), the link is emailed to the invitee once the invitation is saved; `email_status` says whether the mail server took it, and the invitation stands either way.',
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
      const { invitation, token, emailStatus } = await auth.invite(organization, { ...user, role }, request.body)
      return reply.code(201).send({ ...invitationView(invitation), token, email_status: emailStatus })
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
          'A new token for an invitation not yet accepted or revoked, expired or not: the old one stops working, and it expires 7 days (INVITATION_TTL_DAYS) from now. Only owners re-send an owner\u2019s invitation. Emits `member.invited` again. Emailed as a new invitation is (see `email_status`).',
        params: InvitationParams,
        response: {
          200: appResponse('The invitation, with its new token (shown once).', CreatedInvitationSchema),
          ...appProblemResponses({ role_not_allowed: 'an admin re-sends an invitation for an owner', not_found: 'no open invitation with this id in the organization' }),
        },
      },
    },
    async (request) => {
      const { organization, role, user } = request.membership!
      const { invitation, token, emailStatus } = await auth.resendInvitation(organization, { ...user, role }, request.params.id)
      return { ...invitationView(invitation), token, email_status: emailStatus }
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

/**
 * POST /app/api/password-reset and /app/api/password-reset/complete: a forgotten password, reset with a
 * link emailed to the account's address. Rate limited per IP like signing in, and refused from another site.
 */
export function passwordResetRoutes(app: App, deps: { resets: PasswordResets }): void {
  const { resets } = deps

  app.post(
    '/app/api/password-reset',
    {
      config: { auth: { kind: 'public', bucket: 'sign-in', sameOrigin: true } },
      schema: {
        operationId: 'appRequestPasswordReset',
        tags: SESSION_TAGS,
        summary: 'Ask for a password reset link',
        description:
          'Emails a link to set a new password to this address, if it has an account: the answer is the same either way, and comes before the address is looked up. The link works once, for 30 minutes; asking again makes a new link and the older one stops working.',
        body: PasswordResetRequestBody,
        response: {
          204: appNoContent('Taken: if the address has an account, a link is on its way.'),
          ...problemResponses({
            rate_limited: 'too many requests from this address (`RATE_LIMIT_SIGN_IN` a minute), or for this email (`RATE_LIMIT_PASSWORD_RESET_ACCOUNT` an hour), known or not; wait `Retry-After` seconds',
          }),
          ...appProblemResponses({ email_not_configured: true, cross_site_request: true }),
        },
      },
    },
    async (request, reply) => {
      await resets.request(request.body.email)
      return reply.code(204).send()
    },
  )

  app.post(
    '/app/api/password-reset/complete',
    {
      config: { auth: { kind: 'public', bucket: 'sign-in', sameOrigin: true } },
      schema: {
        operationId: 'appResetPassword',
        tags: SESSION_TAGS,
        summary: 'Set a new password with a reset link',
        description: 'Takes the token of an emailed link, once. Every session of the user ends; they sign in with the new password.',
        body: PasswordResetBody,
        response: {
          204: appNoContent('The password is changed.'),
          ...appProblemResponses({ reset_link_invalid: true }),
          ...SIGN_IN_PROBLEMS,
        },
      },
    },
    async (request, reply) => {
      await resets.reset(request.body.token, request.body.new_password)
      return reply.code(204).send()
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
