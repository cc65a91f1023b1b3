import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../platform/db/index.js'
import type { Scope } from '../../platform/db/schema.js'
import { safeEqual, sha256Hex } from '../../platform/crypto.js'
import { problems } from '../../platform/http/errors.js'
import type { KeyCaller } from '../../platform/http/route-auth.js'
import { randomBytes } from 'node:crypto'
import { uuidv7 } from '../../platform/ids.js'
import { findKey, findKeyByPrefix, insertKey, listKeys, revokeKey, touchKey, type ApiKeyRow } from './store.js'

const TOKEN_PATTERN = /^al_([a-z0-9]{8})_([A-Za-z0-9_-]{43})$/
const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'
const TOUCH_INTERVAL_MS = 60_000
const MAX_CACHED_KEYS = 10_000
const UNIQUE_VIOLATION = '23505'

export interface NewKeyInput {
  organizationId: string
  name: string
  scope: Scope
  expiresAt: Date | null
  createdBy: string | null
  /** Limits of its own per window, for bulk imports (at most `MAX_KEY_LIMIT`); null or absent: the server's. */
  ownLimits?: { expensive?: number | null; cheap?: number | null }
}

interface CachedKey {
  identity: KeyCaller
  cachedAt: number
  touchedAt: number
}

/**
 * Issues, verifies and revokes API keys. Only the SHA-256 of a key's secret is stored: the 32 random
 * bytes behind it leave nothing for a pepper to add. Verified keys are cached for `cacheTtlMs` so
 * authentication costs no query on the hot path; a revocation here clears the cache at once, other
 * processes notice within the TTL.
 */
export class ApiKeyService {
  private readonly cache = new Map<string, CachedKey>()
  private readonly lookups = new Map<string, Promise<KeyCaller | null>>()

  constructor(
    private readonly db: Db,
    private readonly logger: FastifyBaseLogger,
    private readonly cacheTtlMs: number,
  ) {}

  async create(input: NewKeyInput, db: Db = this.db): Promise<{ key: ApiKeyRow; token: string }> {
    for (let attempt = 0; ; attempt++) {
      const prefix = randomPrefix()
      const secret = randomBytes(32).toString('base64url')
      try {
        const key = await insertKey(db, {
          id: uuidv7(),
          organization_id: input.organizationId,
          name: input.name,
          prefix,
          secret_hash: sha256Hex(secret),
          scope: input.scope,
          created_by: input.createdBy,
          expires_at: input.expiresAt,
          limit_expensive: input.ownLimits?.expensive ?? null,
          limit_cheap: input.ownLimits?.cheap ?? null,
        })
        return { key, token: `al_${prefix}_${secret}` }
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION || attempt >= 2) throw error
      }
    }
  }

  async find(organizationId: string, id: string): Promise<ApiKeyRow> {
    const key = await findKey(this.db, organizationId, id)
    if (!key) throw problems.notFound('API key')
    return key
  }

  list(organizationId: string): Promise<ApiKeyRow[]> {
    return listKeys(this.db, organizationId)
  }

  async revoke(organizationId: string, id: string): Promise<ApiKeyRow> {
    const key = await revokeKey(this.db, organizationId, id)
    if (!key) throw problems.notFound('API key')
    for (const [hash, entry] of this.cache) {
      if (entry.identity.keyId === id) this.cache.delete(hash)
    }
    return key
  }

  /**
   * The key named by an `Authorization: Bearer` header, or null when it is not a usable key.
   * Answers synchronously from the cache; concurrent misses for one key share a single look-up.
   */
  authenticate(authorization: string | undefined): KeyCaller | null | Promise<KeyCaller | null> {
    const token = bearerToken(authorization)
    if (!token) return null
    const tokenHash = sha256Hex(token)
    const now = Date.now()
    const cached = this.cache.get(tokenHash)
    if (cached && now - cached.cachedAt < this.cacheTtlMs) {
      if (isExpired(cached.identity, now)) return null
      if (now - cached.touchedAt >= TOUCH_INTERVAL_MS) this.touch(cached, now)
      return cached.identity
    }
    let pending = this.lookups.get(tokenHash)
    if (!pending) {
      pending = this.lookUp(token, tokenHash).finally(() => this.lookups.delete(tokenHash))
      this.lookups.set(tokenHash, pending)
    }
    return pending
  }

  private async lookUp(token: string, tokenHash: string): Promise<KeyCaller | null> {
    this.cache.delete(tokenHash)
    const identity = await this.verify(token)
    if (!identity) return null
    const now = Date.now()
    const entry: CachedKey = { identity, cachedAt: now, touchedAt: 0 }
    this.remember(tokenHash, entry)
    this.touch(entry, now)
    return identity
  }

  private async verify(token: string): Promise<KeyCaller | null> {
    const [, prefix, secret] = TOKEN_PATTERN.exec(token) ?? []
    if (!prefix || !secret) return null
    const row = await findKeyByPrefix(this.db, prefix)
    const matches = safeEqual(sha256Hex(secret), row?.secret_hash ?? '0'.repeat(64))
    if (!row || !matches || row.revoked_at) return null
    const identity: KeyCaller = {
      via: 'key',
      keyId: row.id,
      rateLimitId: row.id,
      organizationId: row.organization_id,
      name: row.name,
      prefix: row.prefix,
      scope: row.scope,
      expiresAt: row.expires_at,
      ownLimits: { expensive: row.limit_expensive, cheap: row.limit_cheap },
    }
    return isExpired(identity, Date.now()) ? null : identity
  }

  private remember(tokenHash: string, entry: CachedKey): void {
    if (this.cache.size >= MAX_CACHED_KEYS) {
      const oldest = this.cache.keys().next().value
      if (oldest !== undefined) this.cache.delete(oldest)
    }
    this.cache.set(tokenHash, entry)
  }

  private touch(entry: CachedKey, now: number): void {
    entry.touchedAt = now
    touchKey(this.db, entry.identity.keyId).catch((error: unknown) =>
      this.logger.warn({ err: error, keyId: entry.identity.keyId }, 'could not record API key use'),
    )
  }
}

const BEARER = /^\s*bearer\s+(\S+)\s*$/i
/** What nearly every client sends; a test and a slice cost less than BEARER's match array. */
const USUAL_BEARER = /^Bearer \S+$/

function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null
  return USUAL_BEARER.test(authorization) ? authorization.slice(7) : (BEARER.exec(authorization)?.[1] ?? null)
}

function isExpired(identity: KeyCaller, now: number): boolean {
  return identity.expiresAt !== null && identity.expiresAt.getTime() <= now
}

function randomPrefix(): string {
  const bytes = randomBytes(8)
  return Array.from(bytes, (b) => PREFIX_ALPHABET[b % PREFIX_ALPHABET.length]).join('')
}

const DURATION_UNITS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** `90d`, `12h`, `2w` -> a date that far ahead; null when the text is not such a duration. */
export function expiryFromDuration(text: string, now = Date.now()): Date | null {
  const match = /^(\d{1,5})([hdw])$/.exec(text.trim())
  if (!match) return null
  const amount = Number(match[1])
  return amount > 0 ? new Date(now + amount * DURATION_UNITS[match[2]!]!) : null
}
