import { sql } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import type { EmbeddedMetadata } from '../../platform/db/schema.js'
import { readEmbeddedMetadata, readOrientedSize, type EmbeddedMetadataOptions } from '../../platform/images/embedded-metadata.js'
import type { AnalysedFile, Analysis } from './analysis.js'

/** What the metadata analysis keeps: the file's metadata, and its sides as shown (null when the header says none). */
export interface MetadataResult {
  metadata: EmbeddedMetadata
  shown: { width: number; height: number } | null
}

/** A file that carries nothing, or that cannot be read. */
export const NO_EMBEDDED_METADATA: EmbeddedMetadata = {
  orientation: null,
  captured_at: null,
  camera_make: null,
  camera_model: null,
  lens: null,
  creator: null,
  copyright: null,
  credit: null,
  title: null,
  description: null,
  keywords: [],
  gps: null,
}

/**
 * The `metadata` derivation's analysis: the file's EXIF, IPTC and XMP, and its width and height as
 * shown after the EXIF orientation. A push records those sides already; assets pushed before did not
 * (a camera photo turned by its orientation was recorded with its sides swapped), and migration 0021
 * queued every one, so this analysis puts them right in the background.
 */
export function metadataAnalysis(options: EmbeddedMetadataOptions): Analysis<MetadataResult> {
  return {
    name: 'metadata',
    queue: 'metadata_jobs',
    resultColumn: 'metadata',
    async analyse(file: AnalysedFile): Promise<MetadataResult> {
      // An SVG has no EXIF; its text is the push's (`file_text`).
      if (file.mimeType === 'image/svg+xml') return { metadata: NO_EMBEDDED_METADATA, shown: null }
      const [embedded, oriented] = await Promise.all([readEmbeddedMetadata(file.bytes, file.mimeType, options), readOrientedSize(file.bytes)])
      return {
        metadata: { orientation: oriented?.orientation ?? null, ...embedded },
        shown: oriented && { width: oriented.width, height: oriented.height },
      }
    },
    unreadable: () => ({ metadata: NO_EMBEDDED_METADATA, shown: null }),
    save: saveMetadata,
  }
}

/**
 * One statement: the metadata and the sides on the asset while it has this file, and the same sides
 * on each of its versions with this file (the current one, and any earlier copy of it) that disagree.
 */
async function saveMetadata(db: Db, file: AnalysedFile, { metadata, shown }: MetadataResult): Promise<void> {
  const width = shown?.width ?? file.width
  const height = shown?.height ?? file.height
  await sql`
    with analysed as (
      update assets set metadata = ${JSON.stringify(metadata)}::jsonb, width = ${width}, height = ${height}
      where id = ${file.assetId} and sha256 = ${file.sha256}
      returning id
    )
    update asset_versions v set width = ${width}, height = ${height}
    from analysed
    where v.asset_id = analysed.id and v.sha256 = ${file.sha256} and (v.width <> ${width} or v.height <> ${height})
  `.execute(db)
}
