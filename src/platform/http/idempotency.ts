import { createHash, randomUUID, type Hash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerAsyncHookHandler, preParsingHookHandler, RouteOptions } from 'fastify'
import { AppError, problems } from './errors.js'
import type { DatabaseHandle } from '../db/index.js'
import { claimOf, leaseOnFirstUse } from './idempotency-lease.js'
import { claimKey, keyState, recordAnswer, releaseKey, type KeyOwner, type StoredAnswer } from './idempotency-store.js'
import { declaresBody } from './request-rules.js'
import type { Caller } from './route-auth.js'

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key'
export const REPLAYED_HEADER = 'idempotent-replayed'
export const MAX_KEY_LENGTH = 255
/**
 * How long a running request holds its key at most: past it (the request hangs) a retry with the same body
 * takes the key over and runs. Far longer than any write takes, image fetch included. A request whose
 * process died gives its key up at once: its process's lease is gone (idempotency-lease.ts).
 */
export const LEASE_MS = 60_000
/** The headers that are part of an answer; the rest (rate limits, request id, date) belong to each request. */
const ANSWER_HEADERS = ['content-type', 'location', 'etag'] as const
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Whether a route takes `Idempotency-Key`: every write of /api/v1 (the routes an API key calls). */
export function takesIdempotencyKey(route: Pick<RouteOptions, 'method' | 'config'>): boolean {
  return route.config?.auth?.kind === 'key' && [route.method].flat().some((method) => WRITE_METHODS.has(method))
}

/**
 * Whether an answer with this status is kept and replayed. A 5xx is not (our failure: the retry should
 * run), nor the answers that say "try again": 408, 409 (a conflict with a concurrent request, as Stripe
 * keeps none) and 429.
 */
export function isKeptStatus(status: number): boolean {
  return status < 500 && status !== 408 && status !== 409 && status !== 429
}

interface Attempt {
  owner: KeyOwner
  fingerprint: RequestFingerprint
  /** Set once the key is this request's to answer. */
  claim?: string
}

/**
 * `Idempotency-Key` on every /api/v1 write (Stripe's semantics, and the IETF httpapi draft's): the first
 * answer to a key is kept for 24 h per API key (or web-app user) and replayed, with `Idempotent-Replayed:
 * true`, to a retry of the same request; the handler does not run again. The hooks go on the routes that
 * take a key, after the guard's (the caller is known and counted):
 * - preParsing: the key is checked (1 to 255 characters, else 400) and the request's fingerprint starts,
 *   SHA-256 over its method, URL, content type and body bytes, hashed as they stream in;
 * - preHandler: once the body is read (a multipart push's too), the key is claimed with one statement; a
 *   key already answered replays its answer, one held by a running request is 409 (a request whose
 *   process died holds it no longer: the claim names the process's lease), one used for another request
 *   is 422;
 * - onSend: the answer is recorded before it goes out (so an immediate retry replays it), or the claim is
 *   released when it is not kept (a 5xx) or is a stream.
 * Without the header none of this costs a statement.
 */
export function registerIdempotency(app: FastifyInstance, database: DatabaseHandle): void {
  const { db } = database
  const attempts = new WeakMap<FastifyRequest, Attempt>()
  const lease = leaseOnFirstUse(database, app.log)
  app.addHook('onClose', () => lease.close())

  const start: preParsingHookHandler = (request, _reply, payload, done) => {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER]
    if (key === undefined) return done(null, payload)
    const value = String(key)
    if (value.length === 0 || value.length > MAX_KEY_LENGTH) return done(invalidKey(value))
    const fingerprint = new RequestFingerprint(request)
    if (declaresBody(request.routeOptions.schema)) fingerprint.follow(request.raw)
    attempts.set(request, { owner: ownerOf(request.caller!, value), fingerprint })
    done(null, payload)
  }

  const claimOrReplay: preHandlerAsyncHookHandler = async (request, reply) => {
    const attempt = attempts.get(request)
    if (!attempt) return
    const fingerprint = attempt.fingerprint.digest()
    const processLease = await lease.get()
    // A row that goes between the two statements (its request failed with a 5xx) is claimed on the next turn.
    for (let turn = 0; turn < 3; turn++) {
      const claim = claimOf(processLease, randomUUID())
      if (await claimKey(db, attempt.owner, fingerprint, claim, LEASE_MS)) {
        attempt.claim = claim
        return
      }
      const state = await keyState(db, attempt.owner)
      if (!state) continue
      if (state.fingerprint !== fingerprint) throw reusedKey()
      if (state.kind === 'running') break
      return replay(reply, state.answer)
    }
    throw keyInUse()
  }

  const record: onSendHookHandler = async (request, reply, payload) => {
    const attempt = attempts.get(request)
    if (!attempt) return payload
    const { owner, claim } = attempt
    if (claim === undefined) {
      // Refused before its handler (a bad body, say): nothing was claimed, and the rest of the body need not be hashed.
      attempt.fingerprint.stop()
      return payload
    }
    attempt.claim = undefined
    try {
      if (isKeptStatus(reply.statusCode) && (typeof payload === 'string' || payload === null || payload === undefined)) {
        await recordAnswer(db, owner, claim, { status: reply.statusCode, headers: answerHeaders(reply), body: payload ?? null })
      } else {
        await releaseKey(db, owner, claim)
      }
    } catch (error) {
      request.log.warn({ err: error }, 'the answer to an Idempotency-Key could not be recorded; a retry runs again once its lease ends')
    }
    return payload
  }

  app.addHook('onRoute', (route) => {
    if (!takesIdempotencyKey(route)) return
    route.preParsing = [...hooksOf(route.preParsing), start]
    route.preHandler = [...hooksOf(route.preHandler), claimOrReplay]
    route.onSend = [...hooksOf(route.onSend), record]
  })
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : [hooks].flat() as T[]
}

/** Keys are the caller's own: an API key's, or a web-app user's in one organization. */
function ownerOf(caller: Caller, key: string): KeyOwner {
  return { organizationId: caller.organizationId, caller: caller.via === 'key' ? `key:${caller.keyId}` : `user:${caller.userId}`, key }
}

function replay(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  return reply
    .code(answer.status)
    .headers({ ...answer.headers, [REPLAYED_HEADER]: 'true' })
    .send(answer.body ?? undefined)
}

function answerHeaders(reply: FastifyReply): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const name of ANSWER_HEADERS) {
    const value = reply.getHeader(name)
    if (value !== undefined) kept[name] = String(value)
  }
  return kept
}

function invalidKey(value: string): AppError {
  const detail = value.length === 0 ? 'must not be empty' : `must be at most ${MAX_KEY_LENGTH} characters`
  return problems.validation([{ pointer: `/headers/${IDEMPOTENCY_KEY_HEADER}`, detail }])
}

function reusedKey(): AppError {
  return new AppError('idempotency_key_reused', 'This Idempotency-Key was used for another request (method, path or body) in the last 24 hours; use a new key.')
}

function keyInUse(): AppError {
  return new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry once it has answered.')
}

const MULTIPART_BOUNDARY = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i

/**
 * SHA-256 of what makes two requests the same request: method, URL, content type and body. A multipart
 * body is hashed without its boundary, which clients draw afresh for every request (curl, fetch's
 * FormData): a retry of the same form is the same request. The bytes are hashed as they pass on their way
 * to the body's parser, never held: only the last few bytes (a boundary split between two chunks) wait.
 */
class RequestFingerprint {
  private readonly hash: Hash
  private readonly boundary: Buffer | undefined
  private tail = Buffer.alloc(0)
  private followed: { raw: IncomingMessage; listener: (chunk: Buffer) => void } | undefined

  constructor(request: FastifyRequest) {
    const contentType = request.headers['content-type'] ?? ''
    const boundary = MULTIPART_BOUNDARY.exec(contentType)
    this.boundary = boundary ? Buffer.from(boundary[1] ?? boundary[2]!) : undefined
    this.hash = createHash('sha256').update(`${request.method} ${request.url}\n${contentType.replace(MULTIPART_BOUNDARY, '')}\n`)
  }

  /**
   * Hashes the body as it is read. The request is paused first, so the listener added here does not start
   * the flow: the bytes move only when the body's parser reads them (JSON's or the multipart form's), and
   * this listener, added first, sees every chunk before the parser does.
   */
  follow(raw: IncomingMessage): void {
    const listener = (chunk: Buffer) => this.update(chunk)
    raw.pause()
    raw.on('data', listener)
    this.followed = { raw, listener }
  }

  /** The fingerprint of the request read so far: once the body is parsed, the whole request. */
  digest(): string {
    this.stop()
    this.hash.update(this.tail)
    return this.hash.digest('hex')
  }

  /** Stops hashing what is still to come of the body. */
  stop(): void {
    if (this.followed) this.followed.raw.off('data', this.followed.listener)
    this.followed = undefined
  }

  private update(chunk: Buffer): void {
    const boundary = this.boundary
    if (!boundary) {
      this.hash.update(chunk)
      return
    }
    if (chunk.length < boundary.length) {
      this.scan(Buffer.concat([this.tail, chunk]))
      return
    }
    // A boundary begun in the held bytes ends within the chunk's first bytes: only those are joined to them.
    const held = this.tail.length
    let start = 0
    if (held > 0) {
      const seam = Buffer.concat([this.tail, chunk.subarray(0, boundary.length - 1)])
      const at = seam.indexOf(boundary)
      this.hash.update(seam.subarray(0, at === -1 ? held : at))
      if (at !== -1) start = at + boundary.length - held
    }
    this.scan(chunk, start)
  }

  /** Hashes `data` from `start` without its boundaries, holding back an end that may begin one. */
  private scan(data: Buffer, start = 0): void {
    const boundary = this.boundary!
    for (let at = data.indexOf(boundary, start); at !== -1; at = data.indexOf(boundary, start)) {
      this.hash.update(data.subarray(start, at))
      start = at + boundary.length
    }
    const held = Math.max(start, data.length - boundary.length + 1)
    this.hash.update(data.subarray(start, held))
    this.tail = Buffer.from(data.subarray(held))
  }
}
