import type { Db } from '../../platform/db/index.js'
import type { ImageProcessor } from '../../platform/images/images.js'
import { perceptualHash } from '../../platform/images/perceptual-hash.js'
import type { AnalysedFile, Analysis } from '../assets/analysis.js'
import { saveHash } from './store.js'

/**
 * The `perceptual_hash` derivation's analysis: the dHash of the current file, kept with its bands and
 * its near-duplicates (within NEAR_DUPLICATE_DISTANCE). An image that cannot be decoded, or one too
 * plain to compare (one flat colour), has no hash (null), so no near-duplicates.
 */
export class PerceptualHashAnalysis implements Analysis<bigint | null> {
  readonly name = 'perceptual_hash'
  readonly queue = 'perceptual_hash_jobs'
  readonly resultColumn = 'perceptual_hash_algorithm'

  constructor(private readonly deps: { images: ImageProcessor; nearDuplicateDistance: number }) {}

  analyse(file: AnalysedFile): Promise<bigint | null> {
    return perceptualHash(this.deps.images, file.bytes)
  }

  unreadable(): null {
    return null
  }

  save(db: Db, file: AnalysedFile, hash: bigint | null): Promise<void> {
    return saveHash(db, file, hash, this.deps.nearDuplicateDistance)
  }
}
