/** The part of s3rver 3.7.1 (which ships no types) the tests use. */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net'

  export default class S3rver {
    constructor(options: { address?: string; port?: number; silent?: boolean; directory: string; vhostBuckets?: boolean })
    run(): Promise<AddressInfo>
    close(): Promise<void>
  }
}
