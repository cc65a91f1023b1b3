import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import type { BuiltApp } from '../../src/app.js'
import type { Role } from '../../src/platform/db/schema.js'
import type { Seeded } from './app.js'

export const SESSION_COOKIE = 'al_session'
export const PASSWORD = 'a long enough password'

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
/** `csrf: null` sends no X-CSRF-Token header; a string sends that instead of the session's own. */
interface CallOptions {
  csrf?: string | null
  headers?: Record<string, string>
}

/** A signed-in browser: its cookie and CSRF token, and requests made with them. */
export interface Client {
  userId: string
  email: string
  cookie: string
  csrf: string
  get(url: string): Promise<LightMyRequestResponse>
  post(url: string, payload?: unknown, options?: CallOptions): Promise<LightMyRequestResponse>
  put(url: string, payload?: unknown, options?: CallOptions): Promise<LightMyRequestResponse>
  patch(url: string, payload?: unknown, options?: CallOptions): Promise<LightMyRequestResponse>
  delete(url: string, options?: CallOptions): Promise<LightMyRequestResponse>
}

export function postLogin(app: BuiltApp, payload: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/app/api/login', payload: payload as object, headers })
}

export function sessionCookie(res: LightMyRequestResponse): LightMyRequestResponse['cookies'][number] | undefined {
  return res.cookies.find((cookie) => cookie.name === SESSION_COOKIE)
}

/** The client of a successful login or invitation acceptance. */
export function clientFrom(app: BuiltApp, res: LightMyRequestResponse): Client {
  const value = sessionCookie(res)?.value
  if (res.statusCode !== 200 || !value) throw new Error(`expected a new session, got ${res.statusCode} ${res.body}`)
  const body = res.json<{ user: { id: string; email: string }; csrf_token: string }>()
  const cookie = `${SESSION_COOKIE}=${value}`
  const send = (method: Method, url: string, payload?: unknown, options: CallOptions = {}) => {
    const csrf = options.csrf === undefined ? body.csrf_token : options.csrf
    return app.inject({
      method,
      url,
      ...(payload !== undefined && { payload: payload as object }),
      headers: { cookie, ...(csrf !== null && { 'x-csrf-token': csrf }), ...options.headers },
    })
  }
  return {
    userId: body.user.id,
    email: body.user.email,
    cookie,
    csrf: body.csrf_token,
    get: (url) => send('GET', url),
    post: (url, payload, options) => send('POST', url, payload, options),
    put: (url, payload, options) => send('PUT', url, payload, options),
    patch: (url, payload, options) => send('PATCH', url, payload, options),
    delete: (url, options) => send('DELETE', url, undefined, options),
  }
}

export async function login(app: BuiltApp, email: string, password: string): Promise<Client> {
  return clientFrom(app, await postLogin(app, { email, password }))
}

/** The organization's owner, signed in. */
export function loginOwner(app: BuiltApp, seeded: Seeded): Promise<Client> {
  return login(app, seeded.owner.email, seeded.owner.password)
}

/** A new user with `role` in the organization, signed in. */
export async function signedInMember(app: BuiltApp, organizationId: string, role: Role): Promise<Client> {
  const email = `${role}-${randomBytes(4).toString('hex')}@example.com`
  await app.services.orgs.addMember(organizationId, { email, password: PASSWORD, role })
  return login(app, email, PASSWORD)
}
