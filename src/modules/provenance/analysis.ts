import type { Provenance } from '../../platform/db/schema.js'
import type { C2paReader } from '../../platform/images/c2pa.js'
import { readProvenance } from '../../platform/images/provenance.js'
import type { Analysis, AnalysedFile } from '../assets/analysis.js'
import { saveProvenance } from './store.js'

/**
 * The `provenance` derivation's analysis: the origin the file declares (XMP digital source type, C2PA
 * manifest). It decodes no pixel, so every image has a result; `created_by_ai` is left as pushed.
 */
export function provenanceAnalysis(c2pa: C2paReader): Analysis<Provenance> {
  return {
    name: 'provenance',
    queue: 'provenance_jobs',
    resultColumn: 'provenance',
    analyse: (file: AnalysedFile) => readProvenance(file.bytes, file.mimeType, c2pa),
    unreadable: () => ({ source: 'unknown', c2pa: null }),
    save: (db, file, provenance) => saveProvenance(db, { id: file.assetId, sha256: file.sha256 }, provenance),
    close: () => c2pa.close(),
  }
}
