import { hmacHex, safeEqual } from './crypto.js'

const HOUR_MS = 3_600_000
const VALIDITY_MS = 24 * HOUR_MS

export interface SignedLink {
  url: string
  expiresAt: Date
}

/**
 * Capability URLs for files: `<base><path>?expires=<unix s>&sig=<hmac>`. The expiry is about 24 h
 * ahead, rounded up to the hour, so every read within an hour gives the same URL and caches hit.
 */
export class UrlSigner {
  constructor(
    private readonly secret: string,
    private readonly publicBaseUrl: string,
  ) {}

  sign(path: string, now = Date.now()): SignedLink {
    const expiresAt = new Date(Math.ceil((now + VALIDITY_MS) / HOUR_MS) * HOUR_MS)
    const expires = Math.floor(expiresAt.getTime() / 1000)
    return { url: `${this.publicBaseUrl}${path}?expires=${expires}&sig=${this.signature(path, expires)}`, expiresAt }
  }

  /** Seconds the link stays valid, or null when the signature is wrong, for another path, or expired. */
  verify(path: string, expires: number, signature: string, now = Date.now()): number | null {
    if (!safeEqual(signature, this.signature(path, expires))) return null
    const remaining = expires - Math.floor(now / 1000)
    return remaining > 0 ? remaining : null
  }

  private signature(path: string, expires: number): string {
    return hmacHex(this.secret, `${path}\n${expires}`)
  }
}
