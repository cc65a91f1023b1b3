import type { Db } from '../../platform/db/index.js'
import type { ImageProcessor } from '../../platform/images/images.js'
import { PALETTE_SAMPLE, paletteOfSample, type Palette } from '../../platform/images/palette.js'
import type { AnalysedFile, Analysis } from '../assets/analysis.js'
import { savePalette } from './store.js'

/**
 * The `palette` derivation: the dominant colours of each asset's current file and their names. The
 * sample is decoded in one of the process's decoding slots (an SVG in a render process), so palettes
 * share the bound on decoding with thumbnails and renditions.
 */
export class PaletteAnalysis implements Analysis<Palette> {
  readonly name = 'palette'
  readonly queue = 'palette_jobs'
  readonly resultColumn = 'colors'

  constructor(private readonly images: ImageProcessor) {}

  async analyse(file: AnalysedFile): Promise<Palette> {
    const sample = await this.images.render(file.bytes, PALETTE_SAMPLE)
    return paletteOfSample(sample.data)
  }

  /** An image that cannot be decoded shows no colour: an empty palette, not a pending one. */
  unreadable(): Palette {
    return { colors: [], names: [] }
  }

  async save(db: Db, file: AnalysedFile, palette: Palette): Promise<void> {
    await savePalette(db, { id: file.assetId, sha256: file.sha256 }, palette)
  }
}
