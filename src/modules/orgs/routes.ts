import { Type } from 'typebox'
import type { Organization } from '../../platform/db/schema.js'
import type { App } from '../../platform/http/app-type.js'
import type { OrgService } from './service.js'
import { SESSION_COOKIE, type SessionGuard } from './session-guard.js'

const Email = Type.String({ format: 'email', maxLength: 254 })
const Password = Type.String({ minLength: 10, maxLength: 200 })
const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')])
const OrgParams = Type.Object({ org: Type.String() })

function orgView(org: Organization) {
  return { id: org.id, name: org.name, slug: org.slug, plan: org.plan, ai_enabled: org.ai_enabled, created_at: org.created_at }
}

/** /app/api: the browser application's own endpoints, signed in with a session cookie, not part of v1. */
export function orgRoutes(app: App, deps: { orgs: OrgService; guard: SessionGuard }): void {
  const { orgs, guard } = deps
  const sessionBody = sessionBodyFor(deps)

  app.post('/app/api/logout', { config: { session: 'user' } }, async (request, reply) => {
    await orgs.logout(request.cookies[SESSION_COOKIE]!)
    guard.clearSessionCookie(reply)
    return reply.code(204).send()
  })

  app.get('/app/api/session', { config: { session: 'user' } }, async (request) => {
    const user = request.sessionUser!
    return sessionBody(user, user.sessionId)
  })

  app.get('/app/api/orgs/:org', { config: { session: 'member' }, schema: { params: OrgParams } }, async (request) => {
    const { organization, role } = request.membership!
    return { ...orgView(organization), role }
  })

  app.patch(
    '/app/api/orgs/:org',
    {
      config: { session: 'manager' },
      schema: {
        params: OrgParams,
        body: Type.Object(
          { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })), ai_enabled: Type.Optional(Type.Boolean()) },
          { additionalProperties: false, minProperties: 1 },
        ),
      },
    },
    async (request) => {
      const { organization } = request.membership!
      return orgView(await orgs.updateSettings(organization.id, request.body))
    },
  )

  app.get('/app/api/orgs/:org/members', { config: { session: 'member' }, schema: { params: OrgParams } }, async (request) => {
    const { organization } = request.membership!
    return { data: await orgs.listMembers(organization.id) }
  })

  app.post(
    '/app/api/orgs/:org/invitations',
    { config: { session: 'manager' }, schema: { params: OrgParams, body: Type.Object({ email: Email, role: Role }, { additionalProperties: false }) } },
    async (request, reply) => {
      const { organization, role, user } = request.membership!
      const { invitation, token } = await orgs.invite(organization.id, { id: user.id, email: user.email, role }, request.body)
      return reply.code(201).send({ ...invitationView(invitation), token })
    },
  )

  app.get('/app/api/orgs/:org/invitations', { config: { session: 'manager' }, schema: { params: OrgParams } }, async (request) => {
    const { organization } = request.membership!
    return { data: (await orgs.listInvitations(organization.id)).map(invitationView) }
  })

  app.delete(
    '/app/api/orgs/:org/invitations/:id',
    { config: { session: 'manager' }, schema: { params: Type.Object({ org: Type.String(), id: Type.String({ format: 'uuid' }) }) } },
    async (request, reply) => {
      const { organization } = request.membership!
      await orgs.revokeInvitation(organization.id, request.params.id)
      return reply.code(204).send()
    },
  )
}

/**
 * POST /app/api/login and /app/api/invitations/accept: the two endpoints that take a password, kept in
 * a scope of their own so they can be rate limited per IP.
 */
export function signInRoutes(app: App, deps: { orgs: OrgService; guard: SessionGuard }): void {
  const { orgs, guard } = deps
  const sessionBody = sessionBodyFor(deps)

  app.post(
    '/app/api/login',
    { config: { session: 'none' }, schema: { body: Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }) } },
    async (request, reply) => {
      guard.assertSameOrigin(request)
      const { session, user } = await orgs.login(request.body.email, request.body.password)
      guard.setSessionCookie(reply, session.token)
      return sessionBody(user, session.id)
    },
  )

  app.post(
    '/app/api/invitations/accept',
    {
      config: { session: 'none' },
      schema: {
        body: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 200 }), password: Password, name: Type.Optional(Type.String({ maxLength: 200 })) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      guard.assertSameOrigin(request)
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
    expires_at: invitation.expires_at,
    accepted_at: invitation.accepted_at,
    revoked_at: invitation.revoked_at,
    created_at: invitation.created_at,
  }
}
