import { ConfigError, type BlobStoreKind, type Config } from '../../config.js'
import { FileBlobStore, type BlobStore } from './blob-store.js'
import { S3BlobStore } from './s3-blob-store.js'

/** The store of this configuration (`BLOB_STORE`), or of `kind` (`blobs migrate` opens both). */
export function createBlobStore(config: Pick<Config, 'blobStore' | 'blobDir' | 's3'>, kind: BlobStoreKind = config.blobStore): BlobStore {
  if (kind === 'file') return new FileBlobStore(config.blobDir)
  if (config.s3 === undefined) throw new ConfigError(['S3_BUCKET is required to use the S3 store (with S3_ENDPOINT, S3_REGION and the credentials)'])
  return new S3BlobStore(config.s3)
}
