import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import { declarePluginRoutes } from './route-auth.js'
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/** Vite's hashed build output lives under /static/, so the app's own routes (like /assets/:id) never meet a file. */
export const STATIC_PREFIX = '/static/'
/** Paths the server answers itself: a miss there is a 404 problem, never the app's page. */
const SERVER_PREFIXES = ['/api/', '/app/api/', '/files/', '/s/', '/hooks/', STATIC_PREFIX]

export interface WebApp {
  /** Whether there is a build to serve. */
  built: boolean
  /** Answers a page request of the app's client-side routes with index.html; undefined for anything else. */
  page(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined
}

/**
 * The single-page app built into `webDir`: index.html (never cached, with a strict content security
 * policy) for every client route. Without a build there is no page, and the server says so once.
 * `imageOrigins`: other origins the pages show images from (Figma's renderings on the Import screen).
 */
export function webAppPages(webDir: string, publicBaseUrl: string, log: FastifyBaseLogger, imageOrigins: readonly string[] = []): WebApp {
  const index = readIndex(webDir)
  if (!index) {
    log.warn({ webDir }, 'the web app is not built, so / has no page (run npm run build)')
    return { built: false, page: () => undefined }
  }
  const headers = pageHeaders(publicBaseUrl, imageOrigins)
  return {
    built: true,
    page(request, reply) {
      if (!isPageRequest(request)) return undefined
      return reply.code(200).headers(headers).type('text/html; charset=utf-8').send(index)
    },
  }
}

/** The build's hashed files, cached for a year: Vite names every file by its content, so a name never changes meaning. */
export async function serveStaticFiles(app: FastifyInstance, webDir: string): Promise<void> {
  await declarePluginRoutes(app, { kind: 'public' }, '@fastify/static', (scope) =>
    scope.register(fastifyStatic, { root: join(webDir, 'static'), prefix: STATIC_PREFIX, index: false, immutable: true, maxAge: '365d' }),
  )
}

function readIndex(webDir: string): Buffer | null {
  try {
    return readFileSync(join(webDir, 'index.html'))
  } catch {
    return null
  }
}

function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  const path = request.url.split('?')[0]!
  if (SERVER_PREFIXES.some((prefix) => path.startsWith(prefix))) return false
  return (request.headers.accept ?? '').includes('text/html')
}

function pageHeaders(publicBaseUrl: string, imageOrigins: readonly string[]): Record<string, string> {
  // Signed file links are built on PUBLIC_BASE_URL, which may be another origin than the page's.
  const files = new URL(publicBaseUrl).origin
  return {
    'cache-control': 'no-cache',
    'content-security-policy': [
      "default-src 'self'",
      // blob: for the upload's previews of files not yet sent.
      `img-src ${['\'self\'', files, ...imageOrigins, 'data:', 'blob:'].join(' ')}`,
      // React's style props go through the CSSOM, which this does not block; the build has no inline <style>.
      "style-src 'self'",
      "script-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "object-src 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
  }
}
