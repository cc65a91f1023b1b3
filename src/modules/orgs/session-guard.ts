import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Organization, Role } from '../../platform/db/schema.js'
import { hmacHex, safeEqual } from '../../platform/crypto.js'
import { AppError, problems } from '../../platform/http/errors.js'
import type { ApiKeyIdentity } from '../../platform/http/public-api.js'
import { MANAGER_ROLES, SESSION_TTL_MS, type OrgService, type SessionUser } from './service.js'

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
export class SessionGuard {
  constructor(
    private readonly orgs: OrgService,
    private readonly secret: string,
    private readonly publicBaseUrl: string,
  ) {}

  csrfToken(sessionId: string): string {
    return hmacHex(this.secret, `csrf:${sessionId}`)
  }

  async user(request: FastifyRequest): Promise<SessionUser> {
    const user = await this.orgs.sessionUser(request.cookies[SESSION_COOKIE])
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
  async apiCaller(request: FastifyRequest): Promise<ApiKeyIdentity | null> {
    if (request.cookies[SESSION_COOKIE] === undefined) return null
    const user = await this.user(request)
    const organization = pickOrganization(await this.orgs.userOrganizations(user.id), request.headers['x-organization'])
    return {
      via: 'session',
      id: `user:${user.id}`,
      organizationId: organization.id,
      name: user.email,
      prefix: '',
      scope: 'assets:write',
      expiresAt: null,
      manager: MANAGER_ROLES.includes(organization.role),
    }
  }

  /**
   * For requests made before a session exists (login, accepting an invitation): a browser's Origin
   * must be the public URL or the host the request was sent to.
   */
  assertSameOrigin(request: FastifyRequest): void {
    const origin = request.headers.origin
    if (origin === undefined) return
    const allowed = origin === new URL(this.publicBaseUrl).origin || hostOf(origin) === request.headers.host
    if (!allowed) {
      throw new AppError('cross_site_request', 'This request must come from the application itself.')
    }
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

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host
  } catch {
    return null
  }
}

/** What an `/app/api` route needs: nothing (signing in), a session, a member of `:org`, or an owner or admin of it. */
export type SessionRequirement = 'none' | 'user' | 'member' | 'manager'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every /app/api route: what the session guard checks before the handler runs. */
    session?: SessionRequirement
  }
  interface FastifyRequest {
    /** Set for `session: 'user'` routes. */
    sessionUser?: SessionUser
    /** Set for `session: 'member'` and `'manager'` routes. */
    membership?: Membership
  }
}

/**
 * Session checks declared per route and denied by default: registering an `/app/api` route that does
 * not declare `config.session` fails, so a handler cannot forget its check. The check runs before the
 * body is validated, so a stranger learns nothing from validation errors.
 */
export function guardAppRoutes(app: FastifyInstance, guard: SessionGuard): readonly AppRoute[] {
  const routes: AppRoute[] = []
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/app/api/')) return
    const session = (route.config as { session?: SessionRequirement } | undefined)?.session
    if (!session) throw new Error(`${String(route.method)} ${route.url} declares no session requirement (config.session)`)
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, session })
  })
  app.addHook('preValidation', async (request) => {
    const requirement = request.routeOptions.config.session
    if (requirement === 'user') request.sessionUser = await guard.user(request)
    else if (requirement === 'member' || requirement === 'manager') {
      const org = (request.params as { org?: string }).org
      if (org === undefined) throw new Error(`${request.routeOptions.url} needs a session of :org but has no :org`)
      request.membership = await guard.member(request, org, requirement === 'manager' ? MANAGER_ROLES : undefined)
    }
  })
  return routes
}

/** An `/app/api` route and the session it requires, as registered. */
export interface AppRoute {
  method: string
  url: string
  session: SessionRequirement
}
