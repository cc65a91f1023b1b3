import { hmacHex, safeEqual } from './crypto.js'

const HOUR_MS = 3_600_000
const VALIDITY_MS = 24 * HOUR_MS
/** About 4 MiB: the links of 10,000 assets. */
const SIGNED_CACHE_ENTRIES = 20_000

export interface SignedLink {
  url: string
  expiresAt: Date
}

/** The query of a signed URL as received: `share` only on links a public share handed out. */
export interface SignedQuery {
  expires: number
  sig: string
  share?: string | undefined
}

/**
 * Capability URLs for files: `<base><path>?expires=<unix s>&sig=<hmac>`. The expiry is about 24 h
 * ahead, rounded up to the hour, so every read within an hour gives the same URL and caches hit.
 *
 * A link handed out by a public share is bound to it: `<base><path>?expires=<unix s>&share=<ref>&sig=<hmac>`,
 * the HMAC covering the share reference too, so it can be neither removed nor swapped. The signature
 * only proves the link was issued for that share; whoever serves it must still check the share is live.
 */
export class UrlSigner {
  /** Plain links by path: a list page signs two per asset, and within the hour the link is the same. */
  private readonly signed = new Map<string, SignedLink & { expires: number }>()

  constructor(
    private readonly secret: string,
    private readonly publicBaseUrl: string,
  ) {}

  sign(path: string, now = Date.now()): SignedLink {
    const expires = expiryFrom(now)
    const cached = this.signed.get(path)
    if (cached?.expires === expires) return cached
    const link = { url: `${this.publicBaseUrl}${path}?expires=${expires}&sig=${this.signature(path, expires)}`, expiresAt: new Date(expires * 1000), expires }
    if (cached) this.signed.delete(path)
    else if (this.signed.size >= SIGNED_CACHE_ENTRIES) this.signed.delete(this.signed.keys().next().value!)
    this.signed.set(path, link)
    return link
  }

  /** The expiry (unix s) of the links `sign` gives now: while it holds, a link signed earlier is the same. */
  currentExpiry(now = Date.now()): number {
    return expiryFrom(now)
  }

  /** A link bound to the share `share` (a reference that names the share, never its token). */
  signForShare(path: string, share: string, now = Date.now()): SignedLink {
    const expires = expiryFrom(now)
    const query = `expires=${expires}&share=${encodeURIComponent(share)}&sig=${this.signature(path, expires, share)}`
    return { url: `${this.publicBaseUrl}${path}?${query}`, expiresAt: new Date(expires * 1000) }
  }

  /**
   * Seconds the link stays valid, or null when the signature is wrong, for another path or share (a
   * share link without its `share`, or a plain link with one, is wrong), or expired.
   */
  verify(path: string, query: SignedQuery, now = Date.now()): number | null {
    if (!safeEqual(query.sig, this.signature(path, query.expires, query.share))) return null
    const remaining = query.expires - Math.floor(now / 1000)
    return remaining > 0 ? remaining : null
  }

  /** Plain links sign `path\nexpires` (unchanged); share links add a third line, so neither passes for the other. */
  private signature(path: string, expires: number, share?: string): string {
    return hmacHex(this.secret, share === undefined ? `${path}\n${expires}` : `${path}\n${expires}\nshare=${share}`)
  }
}

function expiryFrom(now: number): number {
  return Math.ceil((now + VALIDITY_MS) / HOUR_MS) * (HOUR_MS / 1000)
}
