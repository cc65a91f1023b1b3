import { FileBlobStore, type BlobStore } from './blob-store.js'
import { S3BlobStore, type S3Config } from './s3-blob-store.js'

export type BlobStoreKind = 'file' | 's3'

/** Where image files are kept (`BLOB_STORE`, `BLOB_DIR`, `S3_*`). */
export interface BlobStoreOptions {
  blobStore: BlobStoreKind
  blobDir: string
  /** Undefined when no bucket is configured. */
  s3: S3Config | undefined
}

/** The S3 store was asked for (`blobs migrate --to s3`) while no bucket is configured: the operator must set one. */
export class BlobStoreNotConfiguredError extends Error {
  constructor() {
    super('S3_BUCKET is required to use the S3 store (with S3_ENDPOINT, S3_REGION and the credentials)')
    this.name = 'BlobStoreNotConfiguredError'
  }
}

/** The store of these options (`BLOB_STORE`), or of `kind` (`blobs migrate` opens both). */
export function createBlobStore(options: BlobStoreOptions, kind: BlobStoreKind = options.blobStore): BlobStore {
  if (kind === 'file') return new FileBlobStore(options.blobDir)
  if (options.s3 === undefined) throw new BlobStoreNotConfiguredError()
  return new S3BlobStore(options.s3)
}
