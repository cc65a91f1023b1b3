import { reportUnauthorized } from '../../api/client'
import { PUSH_PATH, type PushAnswer } from './queue'

/** One push as queued: its body and the session headers (CSRF, organization) of the moment it was queued. */
export interface PushRequest {
  body: FormData | Record<string, unknown>
  headers: Record<string, string>
}

/**
 * POST /api/v1/assets (or another upload, as a new version's `path`) through XMLHttpRequest, the one
 * browser API that reports upload progress. It
 * carries the headers captured when the file was queued and treats a 401 as the fetch client does.
 * Aborting `signal` (Cancel) stops the transfer; the answer is then status 0.
 */
export function sendPush(request: PushRequest, onProgress: (fraction: number) => void, signal?: AbortSignal, path = PUSH_PATH): Promise<PushAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest()
    const unreachable = () => resolve({ status: 0, body: null, retryAfter: null })
    xhr.open('POST', path)
    xhr.withCredentials = true
    xhr.responseType = 'text'
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value)
    xhr.setRequestHeader('Accept', 'application/json, application/problem+json')
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    xhr.onload = () => {
      if (xhr.status === 401) reportUnauthorized(path)
      let parsed: unknown = null
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null
      } catch {
        parsed = null
      }
      resolve({ status: xhr.status, body: parsed, retryAfter: xhr.getResponseHeader('Retry-After') })
    }
    xhr.onerror = unreachable
    xhr.onabort = unreachable
    if (signal?.aborted) return unreachable()
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    if (request.body instanceof FormData) {
      xhr.send(request.body)
    } else {
      xhr.setRequestHeader('Content-Type', 'application/json')
      xhr.send(JSON.stringify(request.body))
    }
  })
}
