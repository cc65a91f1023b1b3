import { sessionHeaders } from '../../api/client'
import type { PushAnswer } from './queue'

/**
 * POST /api/v1/assets through XMLHttpRequest, the one browser API that reports upload progress. The
 * session's cookie, CSRF token and organization go with it, as with every other call.
 */
export function sendPush(body: FormData | Record<string, unknown>, onProgress: (fraction: number) => void): Promise<PushAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/api/v1/assets')
    xhr.withCredentials = true
    xhr.responseType = 'text'
    if (sessionHeaders.csrf) xhr.setRequestHeader('X-CSRF-Token', sessionHeaders.csrf)
    if (sessionHeaders.organization) xhr.setRequestHeader('X-Organization', sessionHeaders.organization)
    xhr.setRequestHeader('Accept', 'application/json, application/problem+json')
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    xhr.onload = () => {
      let parsed: unknown = null
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null
      } catch {
        parsed = null
      }
      resolve({ status: xhr.status, body: parsed, retryAfter: xhr.getResponseHeader('Retry-After') })
    }
    xhr.onerror = () => resolve({ status: 0, body: null, retryAfter: null })
    if (body instanceof FormData) {
      xhr.send(body)
    } else {
      xhr.setRequestHeader('Content-Type', 'application/json')
      xhr.send(JSON.stringify(body))
    }
  })
}
