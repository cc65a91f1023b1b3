import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Organization, Role } from '../../platform/db/schema.js'
import { hmacHex, safeEqual } from '../../platform/crypto.js'
import { AppError, problems } from '../../platform/http/errors.js'
import type { SessionCaller, SessionChecks, SessionRole } from '../../platform/http/route-auth.js'
import { MANAGER_ROLES, type OrgService } from '../orgs/service.js'
import { SESSION_TTL_MS, type AuthService, type SessionUser } from './service.js'

export const SESSION_COOKIE = 'al_session'
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export interface Membership {
  organization: Organization
  role: Role
  user: SessionUser
}

/**
 * Who a browser request acts for. State-changing requests must carry the session's CSRF token in
 * `X-CSRF-Token`; a cross-site form cannot set that header, and SameSite=Lax keeps the cookie off
 * cross-site subrequests besides.
 */
export class SessionGuard implements SessionChecks {
  constructor(
    private readonly auth: AuthService,
    private readonly orgs: OrgService,
    private readonly secret: string,
    private readonly publicBaseUrl: string,
  ) {}

  csrfToken(sessionId: string): string {
    return hmacHex(this.secret, `csrf:${sessionId}`)
  }

  async user(request: FastifyRequest): Promise<SessionUser> {
    const user = await this.auth.sessionUser(request.cookies[SESSION_COOKIE])
    if (!user) throw problems.notSignedIn()
    if (!SAFE_METHODS.has(request.method)) {
      const sent = request.headers['x-csrf-token']
      if (typeof sent !== 'string' || !safeEqual(sent, this.csrfToken(user.sessionId))) {
        throw new AppError('csrf_token_invalid', 'Send the X-CSRF-Token header from GET /app/api/session.')
      }
    }
    return user
  }

  /** Another organization is a 404, so membership cannot be probed; too low a role is a 403. */
  async member(request: FastifyRequest, slug: string, roles?: readonly Role[]): Promise<Membership> {
    const user = await this.user(request)
    const organization = await this.orgs.organizationBySlug(slug)
    const role = await this.orgs.roleOf(organization.id, user.id)
    if (!role) throw problems.notFound('Organization')
    if (roles && !roles.includes(role)) {
      throw problems.forbidden('role_required', `Only ${roles.join(' and ')}s can do this.`)
    }
    return { organization, role, user }
  }

  /**
   * The web app calling /api/v1 with its session instead of a key: every role may push, edit and collect
   * (`assets:write`), in the organization named by `X-Organization` (a slug), which may be left out by a
   * user of one organization. Null when there is no session cookie, so the request is anonymous.
   */
  async caller(request: FastifyRequest): Promise<SessionCaller | null> {
    if (request.cookies[SESSION_COOKIE] === undefined) return null
    const user = await this.user(request)
    const organization = pickOrganization(await this.orgs.userOrganizations(user.id), request.headers['x-organization'])
    return {
      via: 'session',
      userId: user.id,
      email: user.email,
      name: user.name,
      organizationId: organization.id,
      scope: 'assets:write',
      rateLimitId: `user:${user.id}`,
      manager: MANAGER_ROLES.includes(organization.role),
    }
  }

  /** An /app/api route's session check: leaves the user, or the membership of `:org`, on the request. */
  async require(request: FastifyRequest, role: SessionRole): Promise<void> {
    if (role === 'user') {
      request.sessionUser = await this.user(request)
      return
    }
    const org = (request.params as { org?: string }).org
    if (org === undefined) throw new Error(`${request.routeOptions.url} needs a session of :org but has no :org`)
    request.membership = await this.member(request, org, role === 'manager' ? MANAGER_ROLES : undefined)
  }

  setSessionCookie(reply: FastifyReply, token: string): void {
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.publicBaseUrl.startsWith('https:'),
      maxAge: SESSION_TTL_MS / 1000,
    })
  }

  clearSessionCookie(reply: FastifyReply): void {
    reply.clearCookie(SESSION_COOKIE, { path: '/' })
  }
}

function pickOrganization<T extends { slug: string }>(memberships: T[], slug: string | string[] | undefined): T {
  if (slug === undefined) {
    if (memberships.length === 1) return memberships[0]!
    throw new AppError('organization_required', 'Name the organization in the X-Organization header (its slug): this user belongs to several.')
  }
  const found = memberships.find((membership) => membership.slug === slug)
  if (!found) throw problems.notFound('Organization')
  return found
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on routes of `auth: { kind: 'session', role: 'user' }`. */
    sessionUser?: SessionUser
    /** Set on routes of `auth: { kind: 'session', role: 'member' | 'manager' }`. */
    membership?: Membership
  }
}
