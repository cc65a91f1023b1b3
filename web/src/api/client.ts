import { apiErrorOf, type ApiError, type paths as V1Paths } from '@asset-library/client'
import createClient, { type Middleware } from 'openapi-fetch'
import type { paths as AppPaths } from './app.gen'

/** What every call made with the session needs: the CSRF token for writes and the organization acted in. */
export const sessionHeaders = { csrf: '', organization: '' }
const signedOutListeners = new Set<() => void>()

/** Runs `listener` whenever the session ends (signing out, or a 401 anywhere); returns the unsubscribe. */
export function whenSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener)
  return () => void signedOutListeners.delete(listener)
}

/** The session is over: everyone holding something of it lets go. */
export function signalSignedOut(): void {
  for (const listener of [...signedOutListeners]) listener()
}

const SAFE = new Set(['GET', 'HEAD'])
/** Their 401 is a wrong password, not a lost session. */
const CREDENTIAL_PATHS = ['/app/api/login', '/app/api/invitations/']

/** The headers a call made with the session carries; the upload's XMLHttpRequest uses them too. */
export function sessionRequestHeaders(method: string): Record<string, string> {
  return {
    ...(!SAFE.has(method.toUpperCase()) && sessionHeaders.csrf && { 'x-csrf-token': sessionHeaders.csrf }),
    ...(sessionHeaders.organization && { 'x-organization': sessionHeaders.organization }),
  }
}

/** A 401 answer to `url` signs this tab out, unless it answered a sign-in's credentials. */
export function reportUnauthorized(url: string): void {
  const path = new URL(url, baseUrl).pathname
  if (!CREDENTIAL_PATHS.some((prefix) => path.startsWith(prefix))) signalSignedOut()
}

/** The method of each answer the two clients got (openapi-fetch answers without its request), for the message of its error. */
const methods = new WeakMap<Response, string>()

const session: Middleware = {
  onRequest({ request }) {
    for (const [name, value] of Object.entries(sessionRequestHeaders(request.method))) request.headers.set(name, value)
    return request
  },
  onResponse({ response, request }) {
    if (response.status === 401) reportUnauthorized(request.url)
    methods.set(response, request.method)
    return response
  },
}

/** The problem of an answer with an error status, as the client package's ApiError (the same for both APIs). */
export function answerError(response: Response, body: unknown): ApiError {
  const { headers } = response
  return apiErrorOf({
    method: methods.get(response) ?? 'GET',
    path: response.url ? new URL(response.url).pathname : '',
    status: response.status,
    body,
    retryAfter: headers.get('retry-after'),
    requestId: headers.get('x-request-id'),
  })
}

const baseUrl = typeof location === 'undefined' ? 'http://localhost' : location.origin

/** The public API, called with the session instead of a key. */
export const v1 = createClient<V1Paths>({ baseUrl, credentials: 'same-origin' })
/** The app's own endpoints: sign-in, keys, webhooks, members, settings. */
export const appApi = createClient<AppPaths>({ baseUrl, credentials: 'same-origin' })
v1.use(session)
appApi.use(session)

/** The data of an openapi-fetch answer, or its problem thrown as an ApiError. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call
  if (!response.ok) throw answerError(response, error)
  return data as T
}

type JsonOf<R, S extends number> = R extends { [K in S]: { content: { 'application/json': infer B } } } ? B : never
type SuccessBody<Operation> = Operation extends { responses: infer R } ? JsonOf<R, 200> | JsonOf<R, 201> | JsonOf<R, 202> : never
type Method = 'get' | 'post' | 'patch' | 'put' | 'delete'

/** The JSON an app endpoint answers on success, from the OpenAPI document. */
export type AppData<P extends keyof AppPaths, M extends Method & keyof AppPaths[P]> = SuccessBody<AppPaths[P][M]>
/** The JSON a v1 endpoint answers on success, from the OpenAPI document. */
export type V1Data<P extends keyof V1Paths, M extends Method & keyof V1Paths[P]> = SuccessBody<V1Paths[P][M]>
