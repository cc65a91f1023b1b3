import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import type * as S3 from '@aws-sdk/client-s3'
import type * as Presigner from '@aws-sdk/s3-request-presigner'
import { loadOnUse } from '../load-on-use.js'
import {
  assertBlobKey,
  BlobStoreUnavailableError,
  InvalidBlobKeyError,
  isBlobKey,
  isContentKey,
  RangeNotSatisfiableError,
  resolveRange,
  type BlobStore,
  type BlobStream,
  type ByteRange,
  type DirectLinkOptions,
  type PutResult,
  type StoredBlob,
} from './blob-store.js'

/** The AWS SDK, loaded by the first S3 store: a library on the file store never needs it. */
const awsS3 = loadOnUse<typeof S3>('@aws-sdk/client-s3')
const awsPresigner = loadOnUse<typeof Presigner>('@aws-sdk/s3-request-presigner')

/** The bucket and how to reach it (`S3_*`). */
export interface S3Config {
  /** Undefined: AWS's own endpoint for `region`. */
  endpoint: string | undefined
  region: string
  bucket: string
  /** Put before every key: empty, or ending in `/`. */
  prefix: string
  /** Undefined: the AWS SDK's default credential chain (environment, shared files, instance roles). Never logged. */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined
  /** Path-style URLs (`endpoint/bucket/key`), which MinIO, Garage and s3rver need. */
  forcePathStyle: boolean
  /** Bounds the connection and the wait for an answer's headers, each (a download's silence: 60 s at least). */
  timeoutMs: number
  /** Attempts per request, the first included (the SDK retries 5xx and network errors with backoff). */
  maxAttempts: number
}

/** Keys asked for per ListObjects call: S3's own maximum. */
const LIST_PAGE_SIZE = 1000
/** The least silence mid-download that ends it (see the client's `socketTimeout`). */
const MIN_BODY_IDLE_MS = 60_000
/** How often a conditional put that lost to a concurrent one (409) is tried again before failing. */
const CONDITIONAL_PUT_ATTEMPTS = 3

/**
 * Blobs as objects of one bucket, under `S3_PREFIX`, with the keys of the file store. S3 stores an object
 * whole or not at all, so there are no temporary writes to clean up; the orphan/lock protocol of
 * blob-store.ts holds as it is, since it relies only on `put` being idempotent and `delete` succeeding
 * when the key is gone.
 *
 * Every failure to reach the bucket (refused or timed-out connection, wrong credentials, missing bucket,
 * 5xx) is a `BlobStoreUnavailableError`: the HTTP layer answers it 503 `storage_unavailable`.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3'
  private readonly client: S3.S3Client

  /** `listPageSize`: keys asked for per ListObjects call (S3's maximum unless a test wants pages). */
  constructor(
    private readonly config: S3Config,
    private readonly listPageSize = LIST_PAGE_SIZE,
  ) {
    this.client = new (awsS3().S3Client)({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint !== undefined && { endpoint: config.endpoint }),
      // Without keys, the SDK's default chain: environment, shared files, SSO, container and instance roles.
      ...(config.credentials !== undefined && { credentials: config.credentials }),
      // WHEN_SUPPORTED (the SDK's default) sends bodies aws-chunked with a trailing checksum, which some
      // S3-compatible servers store as part of the object: silent corruption. See docs/decisions.md.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A bucket that stops answering must fail the request, not hang it: the connection and the wait
      // for the answer's headers are each bounded by S3_TIMEOUT_MS. Mid-download, a client that stops
      // reading pauses the object's stream too, which S3 cannot tell from its own silence: the idle limit
      // there is looser, so a slow client is not cut off.
      requestHandler: {
        connectionTimeout: config.timeoutMs,
        requestTimeout: config.timeoutMs,
        throwOnRequestTimeout: true,
        socketTimeout: Math.max(config.timeoutMs, MIN_BODY_IDLE_MS),
      },
      maxAttempts: config.maxAttempts,
    })
  }

  /** Fails with one line naming the bucket when it is missing or the credentials are refused. */
  async checkReachable(): Promise<void> {
    try {
      await this.client.send(new (awsS3().HeadBucketCommand)({ Bucket: this.config.bucket }))
    } catch (error) {
      throw new BlobStoreUnavailableError(this.unreachableBucket(error), { cause: error })
    }
  }

  async put(bytes: Buffer, sha256 = createHash('sha256').update(bytes).digest('hex')): Promise<PutResult> {
    return { key: sha256, sha256, created: await this.write(sha256, bytes) }
  }

  async putAs(key: string, bytes: Buffer): Promise<{ key: string; created: boolean }> {
    // A bare sha256 key must hold exactly those bytes: only `put` computes it.
    if (isContentKey(key)) throw new InvalidBlobKeyError(key)
    return { key, created: await this.write(key, bytes) }
  }

  async get(key: string): Promise<Buffer | null> {
    const blob = await this.stream(key)
    if (blob === null) return null
    const chunks: Buffer[] = []
    for await (const chunk of blob.body) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks)
  }

  async stream(key: string, range?: ByteRange): Promise<BlobStream | null> {
    const objectKey = this.objectKey(key)
    if (range !== undefined && 'suffix' in range) {
      // Resolved here against the size: some S3-compatible servers read `bytes=-n` as `bytes=0-n`, and
      // S3 answers a zero-length suffix with the whole object. Blobs never change, so the size holds.
      const size = await this.sizeOf(key)
      if (size === null) return null
      return this.stream(key, resolveRange(range, size))
    }
    try {
      const answer = await this.client.send(new (awsS3().GetObjectCommand)({ Bucket: this.config.bucket, Key: objectKey, ...(range && { Range: rangeHeader(range) }) }))
      const body = answer.Body as Readable
      const modifiedAt = answer.LastModified ?? new Date(0)
      const served = parseContentRange(answer.ContentRange)
      // A server that ignores Range answers the whole object: that is served as such (HTTP allows it).
      if (served === undefined) return { body, size: answer.ContentLength ?? 0, modifiedAt }
      return { body, size: served.size, modifiedAt, range: { start: served.start, end: served.end } }
    } catch (error) {
      if (isNotFound(error)) return null
      if (statusOf(error) === 416) throw new RangeNotSatisfiableError((await this.sizeOf(key)) ?? 0)
      throw this.unavailable(`read ${objectKey}`, error)
    }
  }

  async exists(key: string): Promise<boolean> {
    const objectKey = this.objectKey(key)
    try {
      await this.client.send(new (awsS3().HeadObjectCommand)({ Bucket: this.config.bucket, Key: objectKey }))
      return true
    } catch (error) {
      if (isNotFound(error)) return false
      throw this.unavailable(`look up ${objectKey}`, error)
    }
  }

  /** S3 answers 204 for a key that is not there. */
  async delete(key: string): Promise<void> {
    const objectKey = this.objectKey(key)
    try {
      await this.client.send(new (awsS3().DeleteObjectCommand)({ Bucket: this.config.bucket, Key: objectKey }))
    } catch (error) {
      if (isNotFound(error)) return
      throw this.unavailable(`delete ${objectKey}`, error)
    }
  }

  /**
   * A page of up to 1,000 keys at a time; objects under the prefix that are not blob keys are left alone.
   * ListObjects (v1) with the last key as marker: every S3-compatible server pages it the same way, where
   * v2's continuation tokens are the server's own (s3rver's fail on Node 20's OpenSSL).
   */
  async *list(): AsyncIterable<StoredBlob> {
    let marker: string | undefined
    for (;;) {
      let page
      try {
        page = await this.client.send(new (awsS3().ListObjectsCommand)({ Bucket: this.config.bucket, Prefix: this.config.prefix, MaxKeys: this.listPageSize, Marker: marker }))
      } catch (error) {
        throw this.unavailable('list the bucket', error)
      }
      const objects = page.Contents ?? []
      for (const object of objects) {
        const key = object.Key?.slice(this.config.prefix.length)
        if (key !== undefined && isBlobKey(key) && object.LastModified) yield { key, modifiedAt: object.LastModified }
      }
      marker = objects.at(-1)?.Key
      if (!page.IsTruncated || marker === undefined) return
    }
  }

  /** S3 stores an object whole or not at all: no write leaves anything behind. */
  async removeUnfinishedWrites(): Promise<number> {
    return 0
  }

  /** A presigned GET of the object, valid `expiresInSeconds`, answering with the given headers. */
  async directLink(key: string, options: DirectLinkOptions): Promise<string> {
    const command = new (awsS3().GetObjectCommand)({
      Bucket: this.config.bucket,
      Key: this.objectKey(key),
      ResponseContentType: options.contentType,
      ResponseCacheControl: `private, max-age=${options.expiresInSeconds}, immutable`,
      ...(options.contentDisposition !== undefined && { ResponseContentDisposition: options.contentDisposition }),
    })
    return awsPresigner().getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds })
  }

  close(): void {
    this.client.destroy()
  }

  /**
   * `If-None-Match: *` makes the put conditional where the server honours it (412: the key exists, the
   * bytes are the same ones). Where it does not, the put overwrites identical bytes, which is harmless;
   * the look first spares the upload of bytes already there (a push puts its files twice).
   */
  private async write(key: string, bytes: Buffer): Promise<boolean> {
    const objectKey = this.objectKey(key)
    for (let attempt = 1; ; attempt++) {
      if (await this.exists(key)) return false
      try {
        await this.client.send(new (awsS3().PutObjectCommand)({ Bucket: this.config.bucket, Key: objectKey, Body: bytes, ContentLength: bytes.length, IfNoneMatch: '*' }))
        return true
      } catch (error) {
        if (statusOf(error) === 412) return false
        // 409: a concurrent conditional put of the same key is under way; look again.
        if (statusOf(error) === 409 && attempt < CONDITIONAL_PUT_ATTEMPTS) continue
        throw this.unavailable(`write ${objectKey}`, error)
      }
    }
  }

  /** Null when the blob does not exist. */
  private async sizeOf(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(new (awsS3().HeadObjectCommand)({ Bucket: this.config.bucket, Key: this.objectKey(key) }))
      return head.ContentLength ?? 0
    } catch (error) {
      if (isNotFound(error)) return null
      throw this.unavailable(`look up ${this.objectKey(key)}`, error)
    }
  }

  private objectKey(key: string): string {
    assertBlobKey(key)
    return `${this.config.prefix}${key}`
  }

  private unreachableBucket(error: unknown): string {
    const bucket = `S3 bucket ${this.config.bucket} at ${this.config.endpoint === undefined ? `AWS ${this.config.region}` : new URL(this.config.endpoint).origin}`
    const status = statusOf(error)
    if (status === 404) return `${bucket} does not exist: create it, or correct S3_BUCKET (or S3_ENDPOINT)`
    if (status === 401 || status === 403) {
      return `${bucket} refused our credentials (HTTP ${status}): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or what the AWS credential chain found, and the bucket's policy`
    }
    return `${bucket} cannot be reached: ${describe(error)}`
  }

  private unavailable(action: string, error: unknown): BlobStoreUnavailableError {
    return new BlobStoreUnavailableError(`could not ${action} in S3 bucket ${this.config.bucket}: ${describe(error)}`, { cause: error })
  }
}

function rangeHeader(range: { start: number; end?: number }): string {
  return `bytes=${range.start}-${range.end ?? ''}`
}

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/

function parseContentRange(header: string | undefined): { start: number; end: number; size: number } | undefined {
  const match = CONTENT_RANGE.exec(header ?? '')
  if (!match) return undefined
  return { start: Number(match[1]), end: Number(match[2]), size: Number(match[3]) }
}

function statusOf(error: unknown): number | undefined {
  return isS3Error(error) ? error.$metadata.httpStatusCode : undefined
}

function isNotFound(error: unknown): boolean {
  return isS3Error(error) && (error.name === 'NoSuchKey' || error.name === 'NotFound') && statusOf(error) === 404
}

/** What went wrong, in words safe to log: an S3 error's code and status, or a network error's code. */
function describe(error: unknown): string {
  if (isS3Error(error)) return `${error.name} (HTTP ${statusOf(error) ?? '?'})`
  if (error instanceof Error && error.name === 'CredentialsProviderError') {
    return 'no credentials found (set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or give the process a role)'
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const name = error instanceof Error ? error.name : 'unknown error'
  return code === undefined ? name : `${name} ${code}`
}

/** An error the bucket answered (only an S3 store's requests fail with one, so the SDK is loaded by then). */
function isS3Error(error: unknown): error is S3.S3ServiceException {
  return error instanceof awsS3().S3ServiceException
}
