/** Reproducible libraries for the benches: a seeded PRNG, and the file facts of an asset that has no real file. */

/** Deterministic pseudo-random numbers in [0, 1), so every run seeds the same library. */
export function mulberry32(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Plausible sizes, and blob keys that name no file (nothing reads them in a bench). */
export function syntheticFile(random: () => number, sha256: string) {
  return {
    width: 400 + Math.floor(random() * 3600),
    height: 400 + Math.floor(random() * 3600),
    byte_size: 20_000 + Math.floor(random() * 5_000_000),
    sha256,
    blob_key: sha256,
    thumbnail_key: `${sha256}.thumb.webp`,
  }
}
