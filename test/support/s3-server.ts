import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import type { S3Config } from '../../src/platform/blobs/s3-blob-store.js'

/** s3rver's fixed credentials: it checks header signatures against them (not presigned ones). */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

export interface S3Server {
  endpoint: string
  close(): Promise<void>
}

/**
 * A real S3-compatible server (s3rver) on 127.0.0.1, storing under a temporary directory. It differs
 * from S3 where no test may lean on it: it ignores `If-None-Match` on PUT and does not check presigned
 * signatures.
 */
export async function startS3Server(port = 0): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'))
  const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, vhostBuckets: false })
  const address = (await server.run()) as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    async close() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}

/** A new, empty bucket of its own, so test files never see each other's objects. */
export async function createTestBucket(endpoint: string): Promise<string> {
  const bucket = `t-${randomBytes(6).toString('hex')}`
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_TEST_CREDENTIALS })
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }))
  } finally {
    client.destroy()
  }
  return bucket
}

/** The settings of an S3 store on `bucket`, as the app reads them from the environment. */
export function s3Env(endpoint: string, bucket: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    BLOB_STORE: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    ...extra,
  }
}

/** The same, as the store's configuration. */
export function s3Config(endpoint: string, bucket: string, extra: Partial<S3Config> = {}): S3Config {
  return {
    endpoint,
    region: 'us-east-1',
    bucket,
    prefix: '',
    credentials: S3_TEST_CREDENTIALS,
    forcePathStyle: true,
    timeoutMs: 5_000,
    maxAttempts: 2,
    ...extra,
  }
}
