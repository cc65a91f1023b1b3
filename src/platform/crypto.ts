import { createCipheriv, createDecipheriv, createHmac, hash, hkdfSync, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 }

/** One-shot `crypto.hash` is about twice as fast as createHash for short inputs such as API keys. */
export function sha256Hex(value: string | Buffer): string {
  return hash('sha256', value, 'hex')
}

export function hmacHex(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex')
}

/** Constant-time string comparison; unequal lengths compare as unequal without leaking where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  if (left.length !== right.length) {
    timingSafeEqual(left, left)
    return false
  }
  return timingSafeEqual(left, right)
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const hash = await derive(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p)
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), hash.toString('base64')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64')
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p))
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/**
 * Verifying against this when the account does not exist keeps a login's timing
 * the same either way, so response time does not reveal which emails are registered.
 */
export const DECOY_PASSWORD_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return scryptAsync(password.normalize('NFKC'), salt, SCRYPT.keylen, { N, r, p, maxmem: 64 * 1024 * 1024 })
}

const SEAL_VERSION = 'v1'

/**
 * Encrypts a secret the service must read back (a webhook signing secret) with AES-256-GCM, under a key
 * derived from the app secret for `purpose`: a copy of the database alone does not reveal it.
 * Format: `v1.<iv>.<ciphertext>.<tag>`, base64url.
 */
export function seal(appSecret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', sealKey(appSecret, purpose), iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return [SEAL_VERSION, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.')
}

/** The plaintext of `seal`; throws when the value was sealed under another app secret or altered. */
export function unseal(appSecret: string, purpose: string, sealed: string): string {
  const [version, iv, ciphertext, tag] = sealed.split('.')
  if (version !== SEAL_VERSION || !iv || ciphertext === undefined || !tag) throw new Error('not a sealed value')
  const decipher = createDecipheriv('aes-256-gcm', sealKey(appSecret, purpose), Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')
}

function sealKey(appSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', appSecret, 'asset-library', `seal:${purpose}`, 32))
}
