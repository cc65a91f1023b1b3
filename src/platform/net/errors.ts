export type SafeFetchErrorKind =
  | 'blocked'
  | 'too_large'
  | 'timeout'
  | 'unreachable'
  | 'bad_status'
  | 'too_many_redirects'
  | 'invalid_url'

/**
 * A failed outbound fetch. `kind` is stable for callers to branch on; `message` is safe to show to
 * API clients: it never names a host or address (a redirect may point at ours). The underlying
 * error, which may, stays in `cause` for the logs.
 */
export class SafeFetchError extends Error {
  override readonly name = 'SafeFetchError'

  constructor(
    readonly kind: SafeFetchErrorKind,
    message: string,
    /** The HTTP status, for `bad_status`. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

export const fetchErrors = {
  invalidUrl: () => new SafeFetchError('invalid_url', 'The URL is not a valid absolute URL.'),
  schemeNotAllowed: () => new SafeFetchError('blocked', 'Only http and https URLs can be fetched.'),
  credentialsNotAllowed: () => new SafeFetchError('blocked', 'URLs with a user name or password are not allowed.'),
  blocked: () => new SafeFetchError('blocked', 'The URL points to a destination that is not allowed.'),
  tooLarge: (maxBytes: number) => new SafeFetchError('too_large', `The response is larger than ${maxBytes} bytes.`),
  timeout: (cause?: unknown) => new SafeFetchError('timeout', 'The remote server did not answer in time.', undefined, { cause }),
  unreachable: (cause?: unknown) =>
    new SafeFetchError('unreachable', 'The remote server could not be reached or broke off the connection.', undefined, { cause }),
  badStatus: (status: number) => new SafeFetchError('bad_status', `The remote server answered with HTTP status ${status}.`, status),
  tooManyRedirects: (max: number) =>
    new SafeFetchError('too_many_redirects', `The remote server redirected more than ${max} times.`),
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'])

/**
 * Maps whatever undici or the socket threw to a SafeFetchError. Our own errors (raised inside the
 * connect guard, or as the deadline's abort reason) may arrive bare or wrapped in `.cause`
 * (`TypeError('fetch failed')`), so the whole cause chain is searched. Errors that are our own bugs
 * (invalid arguments) are rethrown unchanged rather than blamed on the remote server.
 */
export function toSafeFetchError(error: unknown, deadlineExpired: boolean): SafeFetchError {
  const ours = findInCauses(error, (e): e is SafeFetchError => e instanceof SafeFetchError)
  if (ours) return ours
  if (findInCauses(error, (e) => TIMEOUT_CODES.has(errorCode(e)))) return fetchErrors.timeout(error)
  if (deadlineExpired) return fetchErrors.timeout(error)
  if (errorCode(error) === 'UND_ERR_INVALID_ARG') throw error
  return fetchErrors.unreachable(error)
}

function findInCauses<T>(error: unknown, test: (e: unknown) => e is T): T | undefined
function findInCauses(error: unknown, test: (e: unknown) => boolean): unknown
function findInCauses(error: unknown, test: (e: unknown) => boolean): unknown {
  for (let current = error, depth = 0; current !== undefined && depth < 5; depth++) {
    if (test(current)) return current
    current = current instanceof Error ? current.cause : undefined
  }
  return undefined
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : ''
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL)/

/**
 * A stable name for why a fetch got no usable answer, safe to log and show: it never holds an address
 * (webhook attempts record it; a failed image_url fetch is logged with it).
 */
export function failureClass(error: SafeFetchError): string {
  if (error.kind !== 'unreachable') return error.kind
  const codes = causeCodes(error)
  if (codes.some((code) => TLS_CODE.test(code))) return 'tls_error'
  if (codes.includes('ECONNREFUSED')) return 'connection_refused'
  if (codes.some((code) => code === 'ENOTFOUND' || code === 'EAI_AGAIN')) return 'dns_error'
  if (codes.some((code) => code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')) return 'connection_reset'
  return 'network_error'
}

function causeCodes(error: unknown): string[] {
  const codes: string[] = []
  for (let current = error, depth = 0; current instanceof Error && depth < 6; depth++, current = current.cause) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') codes.push(code)
  }
  return codes
}
