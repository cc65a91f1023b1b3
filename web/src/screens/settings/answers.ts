/**
 * What a webhook receiver answered, in people's words: "Answered 500", "Connection refused", "Timed out
 * after 10 s". `error` is the class the server records for an attempt (src/modules/webhooks/delivery.ts,
 * from platform/net/safe-fetch.ts's `failureClass`, and the store's `interrupted`); `statusCode` is 0
 * when no answer came.
 */
export function describeAnswer({ statusCode, error, durationMs }: { statusCode: number | null; error: string | null; durationMs?: number }): string {
  if (statusCode === null) return 'Not tried yet'
  if (error === null) return `Answered ${statusCode}`
  const words = FAILURES[error]
  if (words) return words(statusCode, durationMs)
  // A class this screen does not know yet: its name, readable, with the status when one came.
  const readable = error.replaceAll('_', ' ')
  return `${readable[0]!.toUpperCase()}${readable.slice(1)}${statusCode > 0 ? ` (answered ${statusCode})` : ''}`
}

/**
 * The reason the service gives for disabling an endpoint, whose stored text ends with the last error's
 * class (`The last error: tls_error.`, `… http_error (HTTP 500).`): that end, in words.
 */
export function describeDisabledReason(reason: string): string {
  return reason.replace(/The last error: ([a-z_]+)(?: \(HTTP (\d+)\))?\.$/, (_, error: string, status?: string) => `The last answer: ${describeAnswer({ statusCode: Number(status ?? 0), error })}.`)
}

const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))} s`

const FAILURES: Record<string, (statusCode: number, durationMs?: number) => string> = {
  http_error: (status) => `Answered ${status}`,
  bad_status: (status) => `Answered ${status}`,
  redirect_not_followed: (status) => `Answered ${status}, a redirect, which is not followed: use the final address`,
  timeout: (_, ms) => (ms === undefined ? 'Timed out: no answer in time' : `Timed out after ${seconds(ms)}`),
  tls_error: () => 'TLS certificate not trusted',
  connection_refused: () => 'Connection refused',
  connection_reset: () => 'Connection broken off',
  dns_error: () => 'Host name not found',
  network_error: () => 'Network error: the receiver could not be reached',
  unreachable: () => 'The receiver could not be reached',
  blocked: () => 'Address not allowed: it is private or blocked',
  invalid_url: () => 'Not a valid address',
  too_large: () => 'Answer too large',
  too_many_redirects: () => 'Too many redirects',
  secret_unreadable: () => 'The signing secret cannot be read: rotate it',
  interrupted: () => 'Interrupted before an answer came: the receiver may have got it',
}

/** Every class the server records, for the test that each one reads in words. */
export const KNOWN_FAILURES = Object.keys(FAILURES)
