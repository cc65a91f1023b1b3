import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../src/config.js'

const dirs: string[] = []
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'al-config-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ DATA_DIR: dataDir(), ...env })
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe('loadConfig', () => {
  it('reads SMTP_URL and SMTP_FROM together, and says what is wrong without echoing the password', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).smtp).toBeUndefined()
    const from = 'Asset Library <assets@example.com>'
    expect(loadConfig({ DATA_DIR: dataDir(), SMTP_URL: 'smtps://user:secret-pw@smtp.example.com:465', SMTP_FROM: from }).smtp).toEqual({
      url: 'smtps://user:secret-pw@smtp.example.com:465',
      from,
    })
    for (const good of ['assets@example.com', '"Assets, Inc." <assets@example.com>', 'Assets<assets@example.com>']) {
      expect(problemsOf({ SMTP_URL: 'smtp://127.0.0.1:2525', SMTP_FROM: good }), good).toEqual([])
    }
    const problems = [
      ...problemsOf({ SMTP_URL: 'http://user:secret-pw@smtp.example.com', SMTP_FROM: from }),
      ...problemsOf({ SMTP_URL: 'smtp://user:secret-pw@smtp.example.com' }),
      ...problemsOf({ SMTP_URL: 'smtp://smtp.example.com', SMTP_FROM: 'a@example.com, b@example.com' }),
      ...problemsOf({ SMTP_URL: 'smtp://smtp.example.com', SMTP_FROM: 'Eve\r\nBcc: x@example.com <a@example.com>' }),
      ...problemsOf({ SMTP_URL: 'smtp://smtp.example.com', SMTP_FROM: 'not an address' }),
    ]
    expect(problems).toEqual([
      'SMTP_URL must start with smtp:// or smtps://',
      'SMTP_FROM is required with SMTP_URL: the sender of the emails, such as "Asset Library <assets@example.com>"',
      expect.stringContaining('SMTP_FROM must be one email address'),
      expect.stringContaining('SMTP_FROM must be one email address'),
      expect.stringContaining('SMTP_FROM must be one email address'),
    ])
    expect(problems.join('\n')).not.toContain('secret-pw')
  })

  it('runs with no settings at all: embedded database under ./data, port 3000', () => {
    const dir = dataDir()
    const config = loadConfig({ DATA_DIR: dir })
    expect(config).toMatchObject({
      production: false,
      port: 3000,
      publicBaseUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      redisUrl: undefined,
      dataDir: dir,
      rateLimits: { expensive: 30, cheap: 120, standard: 60, windowMs: 60_000 },
    })
  })

  it('keeps files on disk by default, and reads the S3 settings with BLOB_STORE=s3', () => {
    const dir = dataDir()
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({ blobStore: 'file', blobDir: join(dir, 'blobs'), s3: undefined, filesRedirect: 'none' })
    const config = loadConfig({
      DATA_DIR: dir,
      BLOB_STORE: 's3',
      S3_BUCKET: 'asset-library',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_PREFIX: '/library/',
      S3_ACCESS_KEY_ID: 'AKIA',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      FILES_REDIRECT: 'presigned',
    })
    expect(config).toMatchObject({ blobStore: 's3', filesRedirect: 'presigned' })
    expect(config.s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      bucket: 'asset-library',
      prefix: 'library/',
      credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
      forcePathStyle: true,
      timeoutMs: 10_000,
      maxAttempts: 3,
    })
    // No keys: the AWS SDK's credential chain (environment, shared files, roles) finds them.
    expect(loadConfig({ DATA_DIR: dir, BLOB_STORE: 's3', S3_BUCKET: 'assets' }).s3).toMatchObject({ credentials: undefined, endpoint: undefined, prefix: '' })
  })

  it('explains each S3 setting it cannot use, without echoing the secret', () => {
    expect(problemsOf({ BLOB_STORE: 's3' })).toEqual(['S3_BUCKET is required with BLOB_STORE=s3 (the bucket must exist already)'])
    expect(problemsOf({ BLOB_STORE: 'disk' })).toEqual(['BLOB_STORE must be one of file, s3, got "disk"'])
    const problems = problemsOf({
      BLOB_STORE: 's3',
      S3_BUCKET: 'Not_A_Bucket',
      S3_ENDPOINT: 'ftp://storage',
      S3_PREFIX: 'a b',
      S3_SECRET_ACCESS_KEY: 'hunter2-secret',
      S3_TIMEOUT_MS: '0',
    })
    expect(problems).toEqual([
      'S3_ENDPOINT must start with http:// or https://',
      'S3_TIMEOUT_MS must be a whole number from 100 to 600000, got "0"',
      'S3_BUCKET must be a bucket name (3 to 63 lowercase letters, digits, dots and hyphens), got "Not_A_Bucket"',
      "S3_PREFIX may hold only letters, digits, slashes and !_.*'()-",
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS credential chain',
    ])
    expect(problems.join('\n')).not.toContain('hunter2')
    expect(problemsOf({ FILES_REDIRECT: 'presigned' })).toEqual(['FILES_REDIRECT=presigned needs BLOB_STORE=s3: only a bucket can presign a URL'])
  })

  it('outside production, generates a secret once and keeps it in the data directory', () => {
    const dir = dataDir()
    const first = loadConfig({ DATA_DIR: dir }).appSecret
    expect(first).toMatch(/^[0-9a-f]{64}$/)
    expect(readFileSync(join(dir, 'app-secret'), 'utf8')).toBe(first)
    expect(loadConfig({ DATA_DIR: dir }).appSecret).toBe(first)
  })

  it('refuses to start in production without a secret or a database URL', () => {
    const problems = problemsOf({ NODE_ENV: 'production' })
    expect(problems).toContainEqual(expect.stringMatching(/^APP_SECRET is required when NODE_ENV=production/))
    expect(problems).toContainEqual(expect.stringMatching(/^DATABASE_URL is required/))
    expect(problems).toContainEqual(expect.stringMatching(/^PUBLIC_BASE_URL is required/))
  })

  it('refuses a truncated secret file instead of signing with it', () => {
    const dir = dataDir()
    writeFileSync(join(dir, 'app-secret'), 'abc')
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/holds no usable secret/)
  })

  it('names every bad value, one message each', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://root@db/app',
      REDIS_URL: 'not a url',
      PUBLIC_BASE_URL: 'ftp://example.com',
      APP_SECRET: 'short',
      TRUST_PROXY: 'maybe',
      RATE_LIMIT_CHEAP: '0',
    })
    expect(problems).toHaveLength(8)
    expect(problems).toContainEqual('PORT must be a whole number from 0 to 65535, got "eighty"')
    expect(problems).toContainEqual(expect.stringContaining('LOG_LEVEL must be one of'))
    expect(problems).toContainEqual('DATABASE_URL must start with postgres:// or postgresql://')
    expect(problems).toContainEqual('REDIS_URL is not a valid URL')
    expect(problems).toContainEqual(expect.stringContaining('APP_SECRET must be at least 32 characters'))
    expect(problems).toContainEqual('RATE_LIMIT_CHEAP must be a whole number from 1 to 1000000, got "0"')
  })

  it('lets invitations last 7 days by default, from 1 to 90 when set', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).invitationTtlDays).toBe(7)
    expect(loadConfig({ DATA_DIR: dataDir(), INVITATION_TTL_DAYS: '30' }).invitationTtlDays).toBe(30)
    for (const bad of ['0', '91', '2.5', 'a week']) {
      expect(problemsOf({ INVITATION_TTL_DAYS: bad })).toEqual([`INVITATION_TTL_DAYS must be a whole number from 1 to 90, got "${bad}"`])
    }
  })

  it('logs pretty lines to a terminal and JSON lines anywhere else, unless LOG_FORMAT says which', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }, true).logFormat).toBe('pretty')
    expect(loadConfig({ DATA_DIR: dataDir() }, false).logFormat).toBe('json')
    expect(loadConfig({ DATA_DIR: dataDir(), LOG_FORMAT: 'json' }, true).logFormat).toBe('json')
    expect(loadConfig({ DATA_DIR: dataDir(), LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty')
    expect(problemsOf({ DATA_DIR: dataDir(), LOG_FORMAT: 'yaml' })).toEqual(['LOG_FORMAT must be one of json, pretty, got "yaml"'])
  })

  it('checks the planner statistics every 5 s by default; 0 turns the check off, a negative value is refused', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).statisticsCheckIntervalMs).toBe(5_000)
    expect(loadConfig({ DATA_DIR: dataDir(), STATISTICS_CHECK_INTERVAL_MS: '0' }).statisticsCheckIntervalMs).toBe(0)
    expect(problemsOf({ DATA_DIR: dataDir(), STATISTICS_CHECK_INTERVAL_MS: '-1' })).toEqual(['STATISTICS_CHECK_INTERVAL_MS must be a whole number from 0 to 3600000, got "-1"'])
  })

  it('reads the outbound allowlist and plan limits, and names a bad entry of either', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), OUTBOUND_ALLOWLIST: '10.0.0.0/8, assets.internal', PLAN_LIMITS: '{"team":{"max_assets":5},"enterprise":{}}' })
    expect(config.outboundAllowlist).toEqual(['10.0.0.0/8', 'assets.internal'])
    expect(config.planLimits).toEqual({ team: { maxAssets: 5 }, enterprise: {} })
    const problems = problemsOf({ OUTBOUND_ALLOWLIST: '10.0.0.0/99', PLAN_LIMITS: '{"team":{"max_assets":-1}}' })
    expect(problems).toContainEqual(expect.stringContaining('OUTBOUND_ALLOWLIST: "10.0.0.0/99" is not valid'))
    expect(problems).toContainEqual(expect.stringContaining('PLAN_LIMITS must be JSON like'))
  })

  it('reads the embedding provider, and without a base URL means text mode', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({ embeddings: undefined, vectorEfSearch: 100, serveBackgroundWork: true })
    const config = loadConfig({
      DATA_DIR: dataDir(),
      EMBEDDING_BASE_URL: 'http://localhost:11434/v1/',
      EMBEDDING_MODEL: 'nomic-embed-text',
      EMBEDDING_DIMENSIONS: '768',
      EMBEDDING_API_KEY: 'sk-test',
      SERVE_BACKGROUND_WORK: 'false',
    })
    expect(config.embeddings).toEqual({ baseUrl: 'http://localhost:11434/v1', model: 'nomic-embed-text', dimensions: 768, apiKey: 'sk-test', timeoutMs: 2000 })
    expect(config.serveBackgroundWork).toBe(false)
    const problems = problemsOf({ EMBEDDING_BASE_URL: 'ftp://models', EMBEDDING_DIMENSIONS: 'many', EMBEDDING_TIMEOUT_MS: '0' })
    expect(problems).toContainEqual(expect.stringContaining('EMBEDDING_BASE_URL must start with http:// or https://'))
    expect(problems).toContainEqual(expect.stringContaining('EMBEDDING_DIMENSIONS must be a whole number'))
    expect(problems).toContainEqual(expect.stringContaining('EMBEDDING_TIMEOUT_MS must be a whole number'))
    expect(problemsOf({ EMBEDDING_BASE_URL: 'http://localhost:11434/v1' })).toEqual([expect.stringContaining('EMBEDDING_MODEL is required')])
  })

  it('reads the image-embedding provider: none by default, Immich ML at a URL, or an ONNX model folder named by its folder', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).imageEmbeddings).toBeUndefined()
    const immich = loadConfig({ DATA_DIR: dataDir(), IMAGE_EMBEDDING_PROVIDER: 'immich-ml', IMAGE_EMBEDDING_URL: 'http://immich-machine-learning:3003/', EMBEDDING_TIMEOUT_MS: '900' })
    expect(immich.imageEmbeddings).toEqual({ provider: 'immich-ml', url: 'http://immich-machine-learning:3003', model: 'ViT-B-32__openai', timeoutMs: 900, jobTimeoutMs: 60_000 })
    const onnx = loadConfig({ DATA_DIR: dataDir(), IMAGE_EMBEDDING_PROVIDER: 'onnx', IMAGE_EMBEDDING_MODEL_DIR: '/models/ViT-B-16__openai', IMAGE_EMBEDDING_JOB_TIMEOUT_MS: '5000' })
    expect(onnx.imageEmbeddings).toEqual({ provider: 'onnx', modelDir: '/models/ViT-B-16__openai', model: 'ViT-B-16__openai', timeoutMs: 2000, jobTimeoutMs: 5000 })
    expect(problemsOf({ IMAGE_EMBEDDING_PROVIDER: 'clip' })).toEqual([expect.stringContaining('IMAGE_EMBEDDING_PROVIDER must be one of none, immich-ml, onnx')])
    expect(problemsOf({ IMAGE_EMBEDDING_PROVIDER: 'immich-ml' })).toEqual([expect.stringContaining('IMAGE_EMBEDDING_URL is required')])
    expect(problemsOf({ IMAGE_EMBEDDING_PROVIDER: 'onnx' })).toEqual([expect.stringContaining('IMAGE_EMBEDDING_MODEL_DIR is required')])
  })

  it('reads the webhook settings: the spec\'s schedule by default, durations with units, an extra CA file', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).webhooks).toEqual({
      timeoutMs: 10_000,
      retryScheduleMs: [5_000, 30_000, 300_000, 1_800_000, 7_200_000],
      maxAttempts: 5,
      retentionDays: 30,
      concurrency: 32,
      perEndpointConcurrency: 8,
      disableAfterMs: 5 * 86_400_000,
    })
    const dir = dataDir()
    writeFileSync(join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\n')
    const config = loadConfig({
      DATA_DIR: dir,
      WEBHOOK_RETRY_SCHEDULE: '250ms, 1.5s,2m,1h',
      WEBHOOK_MAX_ATTEMPTS: '8',
      WEBHOOK_DISABLE_AFTER_MS: '300',
      OUTBOUND_CA_FILE: join(dir, 'ca.pem'),
    })
    expect(config.webhooks).toMatchObject({ retryScheduleMs: [250, 1_500, 120_000, 3_600_000], maxAttempts: 8, disableAfterMs: 300 })
    expect(config.outboundCa).toBe('-----BEGIN CERTIFICATE-----\n')
    for (const schedule of ['5', '5s,,30s', '0s', '5d', 'soon']) {
      expect(problemsOf({ WEBHOOK_RETRY_SCHEDULE: schedule }), schedule).toEqual([expect.stringContaining('WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of durations')])
    }
    expect(problemsOf({ OUTBOUND_CA_FILE: '/no/such/ca.pem', WEBHOOK_MAX_ATTEMPTS: '0', WEBHOOK_DISABLE_AFTER_MS: '0' })).toEqual([
      'OUTBOUND_CA_FILE: cannot read /no/such/ca.pem (ENOENT)',
      'WEBHOOK_MAX_ATTEMPTS must be a whole number from 1 to 50, got "0"',
      'WEBHOOK_DISABLE_AFTER_MS must be a whole number from 1 to 31536000000, got "0"',
    ])
  })

  it('reads the HTTP timeouts: 15 s for headers, 30 s of body silence, 5 min a request, 72 s of keep-alive', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).httpTimeouts).toEqual({ headersMs: 15_000, bodyIdleMs: 30_000, requestMs: 300_000, keepAliveMs: 72_000 })
    const config = loadConfig({
      DATA_DIR: dataDir(),
      HTTP_HEADERS_TIMEOUT_MS: '5000',
      HTTP_BODY_IDLE_TIMEOUT_MS: '10000',
      HTTP_REQUEST_TIMEOUT_MS: '600000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000',
    })
    expect(config.httpTimeouts).toEqual({ headersMs: 5_000, bodyIdleMs: 10_000, requestMs: 600_000, keepAliveMs: 65_000 })
    expect(problemsOf({ HTTP_BODY_IDLE_TIMEOUT_MS: '0', HTTP_KEEP_ALIVE_TIMEOUT_MS: '1m' })).toEqual([
      'HTTP_BODY_IDLE_TIMEOUT_MS must be a whole number from 100 to 3600000, got "0"',
      'HTTP_KEEP_ALIVE_TIMEOUT_MS must be a whole number from 100 to 3600000, got "1m"',
    ])
    expect(problemsOf({ HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' })).toEqual([
      'HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS: the headers are part of the request',
    ])
  })

  it('never echoes a URL that may hold a password', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://root:hunter2@db/app' })
    expect(problems.join(' ')).not.toContain('hunter2')
  })

  it('accepts a full production configuration', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      APP_SECRET: 'x'.repeat(40),
      DATABASE_URL: 'postgres://app:pw@db:5432/assets',
      REDIS_URL: 'redis://cache:6379',
      PUBLIC_BASE_URL: 'https://assets.example.com/',
      PORT: '8080',
      HOST: '0.0.0.0',
      RATE_LIMIT_EXPENSIVE: '10',
    })
    expect(config).toMatchObject({
      production: true,
      port: 8080,
      host: '0.0.0.0',
      publicBaseUrl: 'https://assets.example.com',
      rateLimits: { expensive: 10 },
    })
  })
})
