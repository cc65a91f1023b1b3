import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BlobStoreKind } from './platform/blobs/create.js'
import type { S3Config } from './platform/blobs/s3-blob-store.js'
import type { EmbeddingConfig } from './platform/embeddings/provider.js'
import type { ImageEmbeddingConfig } from './platform/embeddings/image-provider.js'
import type { RateLimitConfig } from './platform/http/rate-limit.js'
import type { HttpTimeouts } from './platform/http/slow-clients.js'
import type { LogFormat, LogLevel } from './platform/logger.js'
import { createAddressPolicy } from './platform/net/address-policy.js'

export interface FigmaConfig {
  /** Figma's REST API (`FIGMA_API_URL`); the tests point it at a loopback fake, reached through `OUTBOUND_ALLOWLIST`. */
  apiUrl: string
  /** One request to Figma, or one download of a rendered image, gives up after this. */
  requestTimeoutMs: number
  /** A 429 or 5xx is retried after `Retry-After` or a backoff; past this much waiting in all, the import fails `figma_unavailable`. */
  maxRetryWaitMs: number
  /** Imports a process runs at once. */
  importConcurrency: number
  /** Figma's webhook events for a file re-run its imports this long after the last one (many saves, one sync). */
  webhookDebounceMs: number
}

/** What the derivations of issue 36 read from an image. */
export interface AnalysisConfig {
  /**
   * The largest Hamming distance between two perceptual hashes that makes their assets near-duplicates.
   * At most 7: the lookup's eight 8-bit bands find every pair within 7 without a scan (see decisions.md).
   */
  nearDuplicateDistance: number
  /** Whether an image's embedded GPS position is kept and shown in `metadata.gps`; off, it is never stored. */
  exposeGps: boolean
}

export interface Config {
  production: boolean
  host: string
  port: number
  publicBaseUrl: string
  databaseUrl: string | undefined
  dataDir: string
  redisUrl: string | undefined
  logLevel: LogLevel
  /** Pretty when stdout is a terminal, JSON otherwise, unless LOG_FORMAT says which. */
  logFormat: LogFormat
  /** Signs capability URLs and CSRF tokens. Never logged, never returned. */
  appSecret: string
  trustProxy: boolean
  shutdownTimeoutMs: number
  /**
   * On SIGTERM, how long `serve` keeps serving with /ready at 503 before it closes: time for a load
   * balancer's health check to take it out, so no request is sent to a closed port.
   */
  shutdownDrainMs: number
  databasePoolSize: number
  /**
   * How often to look for tables whose changes pass autovacuum's thresholds and analyze or vacuum them:
   * always on the embedded database, on PostgreSQL while the server's autovacuum is off. 0 turns it off.
   */
  statisticsCheckIntervalMs: number
  /** How long a verified API key is trusted before it is checked again; bounds how late another process sees a revocation. */
  apiKeyCacheTtlMs: number
  /** How long a process keeps an organization's rendition presets; bounds how late another process's records show a change. */
  presetsCacheTtlMs: number
  /** Records kept in recently listed pages of assets, reused while the library is unchanged; 0 keeps none. */
  listCacheRecords: number
  /** A full-text list of assets counts its matches up to this many; past it, its total is the planner's estimate. */
  listExactTotalUpTo: number
  rateLimits: RateLimitConfig
  /** Email of the owner created on the first start. */
  firstRunOwnerEmail: string
  /** How long an invitation (or a re-sent one) can be accepted. */
  invitationTtlDays: number
  /** Where image files are kept: `blobDir` (file) or the bucket of `s3`. */
  blobStore: BlobStoreKind
  /** The file store's directory; `blobs migrate` reads or fills it whatever `blobStore` says. */
  blobDir: string
  /** Set with BLOB_STORE=s3, or with S3_BUCKET alone (for `blobs migrate` while files stay on disk). */
  s3: S3Config | undefined
  /** `presigned`: a valid signed file URL answers 302 to a short-lived presigned URL of the bucket. */
  filesRedirect: FilesRedirect
  /** The built web app (`npm run build` writes it to web/dist). */
  webDir: string
  /** Unreferenced image files younger than this are kept by the sweep (pushes under way). */
  blobSweepGraceMs: number
  /** How long a deleted asset stays in the trash, restorable, before the purge removes it; 0 purges at the delete. */
  trashRetentionDays: number
  /** How often a process with background work purges the trashed assets whose time has come. */
  trashPurgeIntervalMs: number
  /** Hosts and CIDRs that image_url and webhooks may reach although not public. Empty by default. */
  outboundAllowlist: string[]
  /** Extra certificate authorities (PEM) trusted by image_url fetches and webhook sends. */
  outboundCa: string | undefined
  imageFetchTimeoutMs: number
  /** Images decoded at once by this process. */
  imageConcurrency: number
  /** Renditions: the longest side one may ask for, and the process's limits on making them. */
  renditions: RenditionConfig
  /** SVG is rendered in a child process that is killed past either limit. */
  svgRender: SvgRenderConfig
  /** The design-tool import: where Figma's REST API is, and how hard to try it. */
  figma: FigmaConfig
  analysis: AnalysisConfig
  /** The largest zip of a shared collection's originals (`/s/{token}.zip`), summed before streaming starts. */
  shareZipMaxBytes: number
  /** Per plan name; a plan not listed is unlimited. */
  planLimits: Record<string, { maxAssets?: number; maxBytes?: number }>
  /** Undefined: no provider, search runs in text mode. */
  embeddings: EmbeddingConfig | undefined
  /** Undefined (`IMAGE_EMBEDDING_PROVIDER=none`): no image vectors; search's meaning is the text provider's. */
  imageEmbeddings: ImageEmbeddingConfig | undefined
  /** HNSW candidates examined per vector search (pgvector's hnsw.ef_search). */
  vectorEfSearch: number
  /** Whether `serve` also runs the background work (embeddings, webhooks); `worker` always does. */
  serveBackgroundWork: boolean
  webhooks: WebhookConfig
  httpTimeouts: HttpTimeouts
  /** Undefined: no email; invitations are links to copy, and a forgotten password is reset by an owner's operator. */
  smtp: SmtpConfig | undefined
}

export interface SmtpConfig {
  /** `smtp://` or `smtps://`, with its credentials if any (`SMTP_URL`). Never logged. */
  url: string
  /** The sender of every email (`SMTP_FROM`): one address, optionally with a display name. */
  from: string
}

export type FilesRedirect = 'none' | 'presigned'

export interface RenditionConfig {
  /** Width and height asked for are clamped to 1..maxSide (`RENDER_MAX_SIDE`). */
  maxSide: number
  /** Renditions made at once by this process (`RENDER_CONCURRENCY`). */
  concurrency: number
  /** First renders waiting for a slot beyond which a new one is answered 503 `render_busy` (`RENDER_QUEUE_MAX`). */
  queueMax: number
  /** The bytes the `renditions/` prefix of the blob store may hold; the least recently used go first (`RENDITIONS_MAX_BYTES`). */
  maxBytes: number
}

export interface SvgRenderConfig {
  /** A render of an SVG that takes longer is killed and fails (`SVG_RENDER_TIMEOUT_MS`). */
  timeoutMs: number
  /** A render of an SVG whose process grows past this is killed and fails (`SVG_RENDER_MAX_MEMORY_MB`). */
  maxMemoryMb: number
}

export interface WebhookConfig {
  /** Covers the whole answer: connect, headers and body. */
  timeoutMs: number
  /** The wait after failed attempt n is `retryScheduleMs[n-1]` (the last step repeats). */
  retryScheduleMs: number[]
  /** Attempts per series (the first send, or a replay); then the delivery is failed. */
  maxAttempts: number
  retentionDays: number
  /** Sends in flight in one process. */
  concurrency: number
  /** Sends in flight to one subscription in one process, so one slow endpoint cannot take every slot. */
  perEndpointConcurrency: number
  /** A subscription whose every attempt has failed for this long is disabled automatically. */
  disableAfterMs: number
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/
const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

function parseDurations(text: string): number[] | undefined {
  const matches = text.split(',').map((item) => DURATION.exec(item.trim()))
  if (matches.some((match) => match === null || Number(match[1]) <= 0)) return undefined
  return matches.map((match) => Math.round(Number(match![1]) * DURATION_UNITS[match![2]!]!))
}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
const LOG_FORMATS: LogFormat[] = ['json', 'pretty']
const MIN_SECRET_LENGTH = 32

type Env = Record<string, string | undefined>

/**
 * Reads and validates every setting; the only place that looks at process.env. `stdoutIsTerminal`
 * picks the log format's default.
 */
export function loadConfig(env: Env = process.env, stdoutIsTerminal = process.stdout.isTTY === true): Config {
  const problems: string[] = []
  const read = new EnvReader(env, problems)

  const production = env.NODE_ENV === 'production'
  const port = read.integer('PORT', 3000, 0, 65535)
  const host = read.string('HOST', '127.0.0.1')
  const dataDir = resolve(read.string('DATA_DIR', './data'))
  const databaseUrl = read.url('DATABASE_URL', ['postgres:', 'postgresql:'])
  const redisUrl = read.url('REDIS_URL', ['redis:', 'rediss:'])
  const publicBaseUrl = (read.url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '')
  const logLevel = read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info')
  const logFormat = read.oneOf('LOG_FORMAT', LOG_FORMATS, stdoutIsTerminal ? 'pretty' : 'json')
  const trustProxy = read.boolean('TRUST_PROXY', false)
  const shutdownTimeoutMs = read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000)
  const shutdownDrainMs = read.integer('SHUTDOWN_DRAIN_MS', 5_000, 0, 600_000)
  const databasePoolSize = read.integer('DATABASE_POOL_SIZE', 10, 1, 1000)
  const statisticsCheckIntervalMs = read.integer('STATISTICS_CHECK_INTERVAL_MS', 5_000, 0, 3_600_000)
  const apiKeyCacheTtlMs = read.integer('API_KEY_CACHE_TTL_MS', 5_000, 0, 600_000)
  const presetsCacheTtlMs = read.integer('PRESETS_CACHE_TTL_MS', 5_000, 0, 600_000)
  const listCacheRecords = read.integer('LIST_CACHE_RECORDS', 10_000, 0, 1_000_000)
  const listExactTotalUpTo = read.integer('LIST_EXACT_TOTAL_UP_TO', 1_000, 1, 10_000_000)
  const firstRunOwnerEmail = read.string('FIRST_RUN_OWNER_EMAIL', 'owner@example.com')
  const invitationTtlDays = read.integer('INVITATION_TTL_DAYS', 7, 1, 90)
  const blobDir = resolve(read.string('BLOB_DIR', join(dataDir, 'blobs')))
  const blobStore = read.oneOf<BlobStoreKind>('BLOB_STORE', ['file', 's3'], 'file')
  const s3 = readS3Config(read, problems, blobStore === 's3')
  const filesRedirect = read.oneOf<FilesRedirect>('FILES_REDIRECT', ['none', 'presigned'], 'none')
  if (filesRedirect === 'presigned' && blobStore !== 's3') problems.push('FILES_REDIRECT=presigned needs BLOB_STORE=s3: only a bucket can presign a URL')
  const webDir = resolve(read.string('WEB_DIR', fileURLToPath(new URL('../web/dist', import.meta.url))))
  const blobSweepGraceMs = read.integer('BLOB_SWEEP_GRACE_MS', 3_600_000, 0, 7 * 86_400_000)
  const trashRetentionDays = read.integer('TRASH_RETENTION_DAYS', 30, 0, 3650)
  const trashPurgeIntervalMs = read.integer('TRASH_PURGE_INTERVAL_MS', 600_000, 100, 86_400_000)
  const outboundAllowlist = read.list('OUTBOUND_ALLOWLIST', (entry) => createAddressPolicy([entry]))
  const outboundCa = read.file('OUTBOUND_CA_FILE')
  const imageFetchTimeoutMs = read.integer('IMAGE_FETCH_TIMEOUT_MS', 15_000, 100, 600_000)
  const imageConcurrency = read.integer('IMAGE_CONCURRENCY', 2, 1, 64)
  const renditions: RenditionConfig = {
    maxSide: read.integer('RENDER_MAX_SIDE', 4096, 16, 16_384),
    concurrency: read.integer('RENDER_CONCURRENCY', 2, 1, 64),
    queueMax: read.integer('RENDER_QUEUE_MAX', 32, 0, 10_000),
    maxBytes: read.integer('RENDITIONS_MAX_BYTES', 5 * 1024 ** 3, 1024 ** 2, 1024 ** 5),
  }
  const svgRender: SvgRenderConfig = {
    timeoutMs: read.integer('SVG_RENDER_TIMEOUT_MS', 10_000, 100, 600_000),
    maxMemoryMb: read.integer('SVG_RENDER_MAX_MEMORY_MB', 512, 64, 16_384),
  }
  const figma: FigmaConfig = {
    apiUrl: (read.url('FIGMA_API_URL', ['http:', 'https:']) ?? 'https://api.figma.com').replace(/\/+$/, ''),
    requestTimeoutMs: read.integer('FIGMA_REQUEST_TIMEOUT_MS', 60_000, 100, 600_000),
    maxRetryWaitMs: read.integer('FIGMA_MAX_RETRY_WAIT_MS', 120_000, 0, 3_600_000),
    importConcurrency: read.integer('IMPORT_CONCURRENCY', 2, 1, 16),
    webhookDebounceMs: read.integer('FIGMA_WEBHOOK_DEBOUNCE_MS', 30_000, 0, 3_600_000),
  }
  const analysis: AnalysisConfig = {
    nearDuplicateDistance: read.integer('NEAR_DUPLICATE_DISTANCE', 6, 0, 7),
    exposeGps: read.boolean('EXPOSE_GPS', false),
  }
  const shareZipMaxBytes = read.integer('SHARE_ZIP_MAX_BYTES', 2 * 1024 ** 3, 1, 1024 ** 4)
  const planLimits = read.planLimits('PLAN_LIMITS', DEFAULT_PLAN_LIMITS)
  const embeddingTimeoutMs = read.integer('EMBEDDING_TIMEOUT_MS', 2_000, 50, 600_000)
  const embeddings = readEmbeddingConfig(read, problems, embeddingTimeoutMs)
  const imageEmbeddings = readImageEmbeddingConfig(read, problems, embeddingTimeoutMs)
  const vectorEfSearch = read.integer('VECTOR_EF_SEARCH', DEFAULT_EF_SEARCH, 10, 1000)
  const serveBackgroundWork = read.boolean('SERVE_BACKGROUND_WORK', true)
  const webhooks: WebhookConfig = {
    timeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    retryScheduleMs: read.durations('WEBHOOK_RETRY_SCHEDULE', '5s,30s,5m,30m,2h'),
    maxAttempts: read.integer('WEBHOOK_MAX_ATTEMPTS', 5, 1, 50),
    retentionDays: read.integer('WEBHOOK_RETENTION_DAYS', 30, 1, 3650),
    concurrency: read.integer('WEBHOOK_CONCURRENCY', 32, 1, 1000),
    perEndpointConcurrency: read.integer('WEBHOOK_CONCURRENCY_PER_ENDPOINT', 8, 1, 1000),
    disableAfterMs: read.integer('WEBHOOK_DISABLE_AFTER_MS', 5 * 86_400_000, 1, 365 * 86_400_000),
  }
  const httpTimeouts: HttpTimeouts = {
    headersMs: read.integer('HTTP_HEADERS_TIMEOUT_MS', 15_000, 100, 600_000),
    bodyIdleMs: read.integer('HTTP_BODY_IDLE_TIMEOUT_MS', 30_000, 100, 3_600_000),
    requestMs: read.integer('HTTP_REQUEST_TIMEOUT_MS', 300_000, 100, 86_400_000),
    keepAliveMs: read.integer('HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
  }
  if (httpTimeouts.headersMs > httpTimeouts.requestMs) {
    problems.push('HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS: the headers are part of the request')
  }
  const smtp = readSmtpConfig(read, problems)
  const rateLimits: RateLimitConfig = {
    windowMs: read.integer('RATE_LIMIT_WINDOW_MS', 60_000, 1, 86_400_000),
    expensive: read.integer('RATE_LIMIT_EXPENSIVE', 30, 1, 1_000_000),
    cheap: read.integer('RATE_LIMIT_CHEAP', 120, 1, 1_000_000),
    standard: read.integer('RATE_LIMIT_STANDARD', 60, 1, 1_000_000),
    anonymous: read.integer('RATE_LIMIT_ANONYMOUS', 60, 1, 1_000_000),
    signIn: read.integer('RATE_LIMIT_SIGN_IN', 10, 1, 1_000_000),
    signInAccount: read.integer('RATE_LIMIT_SIGN_IN_ACCOUNT', 10, 1, 1_000_000),
    signInAccountWindowMs: read.integer('RATE_LIMIT_SIGN_IN_ACCOUNT_WINDOW_MS', 15 * 60_000, 1_000, 86_400_000),
    passwordResetAccount: read.integer('RATE_LIMIT_PASSWORD_RESET_ACCOUNT', 3, 1, 1_000_000),
    passwordResetAccountWindowMs: read.integer('RATE_LIMIT_PASSWORD_RESET_ACCOUNT_WINDOW_MS', 60 * 60_000, 1_000, 86_400_000),
    files: read.integer('RATE_LIMIT_FILES', 600, 1, 1_000_000),
    session: {
      expensive: read.integer('RATE_LIMIT_SESSION_EXPENSIVE', 600, 1, 1_000_000),
      cheap: read.integer('RATE_LIMIT_SESSION_CHEAP', 1200, 1, 1_000_000),
      standard: read.integer('RATE_LIMIT_SESSION_STANDARD', 600, 1, 1_000_000),
    },
  }

  let appSecret = env.APP_SECRET
  if (appSecret !== undefined && appSecret.length < MIN_SECRET_LENGTH) {
    problems.push(`APP_SECRET must be at least ${MIN_SECRET_LENGTH} characters (try: openssl rand -hex 32)`)
  }
  if (appSecret === undefined && production) {
    problems.push('APP_SECRET is required when NODE_ENV=production (try: openssl rand -hex 32)')
  }
  if (production && !env.PUBLIC_BASE_URL?.trim()) {
    problems.push('PUBLIC_BASE_URL is required when NODE_ENV=production: links and secure cookies depend on it')
  }
  if (production && !databaseUrl) {
    problems.push('DATABASE_URL is required when NODE_ENV=production; the embedded database is for laptops and trials')
  }
  if (problems.length > 0) throw new ConfigError(problems)
  appSecret ??= developmentSecret(dataDir)

  return {
    production,
    host,
    port,
    publicBaseUrl,
    databaseUrl,
    dataDir,
    redisUrl,
    logLevel,
    logFormat,
    appSecret,
    trustProxy,
    shutdownTimeoutMs,
    shutdownDrainMs,
    databasePoolSize,
    statisticsCheckIntervalMs,
    apiKeyCacheTtlMs,
    presetsCacheTtlMs,
    listCacheRecords,
    listExactTotalUpTo,
    rateLimits,
    firstRunOwnerEmail,
    invitationTtlDays,
    blobStore,
    blobDir,
    s3,
    filesRedirect,
    webDir,
    blobSweepGraceMs,
    trashRetentionDays,
    analysis,
    trashPurgeIntervalMs,
    outboundAllowlist,
    outboundCa,
    imageFetchTimeoutMs,
    imageConcurrency,
    renditions,
    svgRender,
    figma,
    shareZipMaxBytes,
    planLimits,
    embeddings,
    imageEmbeddings,
    vectorEfSearch,
    serveBackgroundWork,
    webhooks,
    httpTimeouts,
    smtp,
  }
}

/** One address (`a@b.example`), or a display name and an address (`Asset Library <a@b.example>`, the name quoted or not). */
const MAILBOX = /^(?:(?:"[^"\\\r\n]*"|[^"<>\r\n]*?)\s*<[^\s<>@"]+@[^\s<>@"]+\.[^\s<>@"]+>|[^\s<>@"]+@[^\s<>@"]+\.[^\s<>@"]+)$/

function readSmtpConfig(read: EnvReader, problems: string[]): SmtpConfig | undefined {
  const url = read.url('SMTP_URL', ['smtp:', 'smtps:'])
  const from = read.string('SMTP_FROM', '')
  if (url === undefined) return undefined
  if (!new URL(url).hostname) problems.push('SMTP_URL must name the mail server, such as smtps://user:password@smtp.example.com')
  if (!from) {
    problems.push('SMTP_FROM is required with SMTP_URL: the sender of the emails, such as "Asset Library <assets@example.com>"')
  } else if (!MAILBOX.test(from)) {
    problems.push(`SMTP_FROM must be one email address, optionally with a display name ("Asset Library <assets@example.com>"), got "${from}"`)
  }
  return { url, from }
}

/**
 * bench/search.ts at 100,000 assets: recall@20 1.000 for stored vectors (similar) from 64, 9.5 ms a
 * scan; for short synthetic text queries only 0.56 (0.90 at 800), whose misses are near-ties. See
 * bench/RESULTS.md before raising it.
 */
const DEFAULT_EF_SEARCH = 100

const IMAGE_EMBEDDING_PROVIDERS = ['none', 'immich-ml', 'onnx'] as const
/** The CLIP model Immich uses by default, under the name its ML service knows it by. */
const DEFAULT_IMAGE_MODEL = 'ViT-B-32__openai'

/**
 * `IMAGE_EMBEDDING_PROVIDER`: `immich-ml` needs `IMAGE_EMBEDDING_URL`, `onnx` needs
 * `IMAGE_EMBEDDING_MODEL_DIR` (whose folder name is the model's, unless `IMAGE_EMBEDDING_MODEL` says
 * otherwise). A search's one request has the text provider's budget, `EMBEDDING_TIMEOUT_MS`.
 */
function readImageEmbeddingConfig(read: EnvReader, problems: string[], timeoutMs: number): ImageEmbeddingConfig | undefined {
  const provider = read.oneOf('IMAGE_EMBEDDING_PROVIDER', IMAGE_EMBEDDING_PROVIDERS, 'none')
  const url = read.url('IMAGE_EMBEDDING_URL', ['http:', 'https:'])
  const modelDir = read.string('IMAGE_EMBEDDING_MODEL_DIR', '')
  const model = read.string('IMAGE_EMBEDDING_MODEL', '')
  const jobTimeoutMs = read.integer('IMAGE_EMBEDDING_JOB_TIMEOUT_MS', 60_000, 100, 600_000)
  if (provider === 'immich-ml') {
    if (url === undefined) problems.push('IMAGE_EMBEDDING_URL is required with IMAGE_EMBEDDING_PROVIDER=immich-ml (for example http://immich-machine-learning:3003)')
    return { provider, url: (url ?? '').replace(/\/+$/, ''), model: model || DEFAULT_IMAGE_MODEL, timeoutMs, jobTimeoutMs }
  }
  if (provider === 'onnx') {
    if (!modelDir) problems.push('IMAGE_EMBEDDING_MODEL_DIR is required with IMAGE_EMBEDDING_PROVIDER=onnx (a folder with visual/ and textual/ ONNX models)')
    const folder = resolve(modelDir || '.')
    return { provider, modelDir: folder, model: model || basename(folder), timeoutMs, jobTimeoutMs }
  }
  return undefined
}

function readEmbeddingConfig(read: EnvReader, problems: string[], timeoutMs: number): EmbeddingConfig | undefined {
  const baseUrl = read.url('EMBEDDING_BASE_URL', ['http:', 'https:'])
  const model = read.string('EMBEDDING_MODEL', '')
  const dimensions = read.optionalInteger('EMBEDDING_DIMENSIONS', 1, 16_000)
  const apiKey = read.string('EMBEDDING_API_KEY', '') || undefined
  if (baseUrl === undefined) return undefined
  if (!model) {
    problems.push('EMBEDDING_MODEL is required with EMBEDDING_BASE_URL (for example nomic-embed-text or text-embedding-3-small)')
  }
  return { baseUrl: baseUrl.replace(/\/+$/, ''), model, apiKey, dimensions, timeoutMs }
}

/** Bucket names as S3 allows them (3–63 characters: lowercase letters, digits, dots, hyphens). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/
const PREFIX = /^[A-Za-z0-9!_.*'()/-]*$/

function readS3Config(read: EnvReader, problems: string[], required: boolean): S3Config | undefined {
  const bucket = read.string('S3_BUCKET', '')
  const endpoint = read.url('S3_ENDPOINT', ['http:', 'https:'])
  const region = read.string('S3_REGION', 'us-east-1')
  const rawPrefix = read.string('S3_PREFIX', '')
  const accessKeyId = read.string('S3_ACCESS_KEY_ID', '')
  const secretAccessKey = read.string('S3_SECRET_ACCESS_KEY', '')
  const forcePathStyle = read.boolean('S3_FORCE_PATH_STYLE', false)
  const timeoutMs = read.integer('S3_TIMEOUT_MS', 10_000, 100, 600_000)
  const maxAttempts = read.integer('S3_MAX_ATTEMPTS', 3, 1, 10)
  if (!bucket) {
    if (required) problems.push('S3_BUCKET is required with BLOB_STORE=s3 (the bucket must exist already)')
    return undefined
  }
  if (!BUCKET_NAME.test(bucket)) problems.push(`S3_BUCKET must be a bucket name (3 to 63 lowercase letters, digits, dots and hyphens), got "${bucket}"`)
  if (!PREFIX.test(rawPrefix)) problems.push('S3_PREFIX may hold only letters, digits, slashes and !_.*\'()-')
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS credential chain')
  }
  const trimmed = rawPrefix.replace(/^\/+|\/+$/g, '')
  return {
    endpoint: endpoint?.replace(/\/+$/, ''),
    region,
    bucket,
    prefix: trimmed ? `${trimmed}/` : '',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle,
    timeoutMs,
    maxAttempts,
  }
}

const DEFAULT_PLAN_LIMITS: Config['planLimits'] = { free: { maxAssets: 10_000, maxBytes: 10 * 1024 ** 3 } }

/** Outside production a random secret is generated once and kept in the data directory, so links survive restarts. */
function developmentSecret(dataDir: string): string {
  const file = join(dataDir, 'app-secret')
  const stored = readSecretFile(file)
  if (stored !== undefined) return stored
  mkdirSync(dataDir, { recursive: true })
  try {
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const secret = readSecretFile(file)
  if (secret === undefined) throw new ConfigError([`could not create ${file}; set APP_SECRET instead`])
  return secret
}

function readSecretFile(file: string): string | undefined {
  let secret: string
  try {
    secret = readFileSync(file, 'utf8').trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError([`${file} holds no usable secret (under ${MIN_SECRET_LENGTH} characters): delete it to generate a new one, or set APP_SECRET`])
  }
  return secret
}

class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  private raw(name: string): string | undefined {
    const value = this.env[name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name)
    if (value === undefined) return fallback
    const parsed = Number(value)
    if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max}, got "${value}"`)
      return fallback
    }
    return parsed
  }

  optionalInteger(name: string, min: number, max: number): number | undefined {
    return this.raw(name) === undefined ? undefined : this.integer(name, min, min, max)
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase()
    if (value === undefined) return fallback
    if (['1', 'true', 'yes', 'on'].includes(value)) return true
    if (['0', 'false', 'no', 'off'].includes(value)) return false
    this.problems.push(`${name} must be true or false, got "${value}"`)
    return fallback
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name)
    if (value === undefined) return fallback
    if ((allowed as readonly string[]).includes(value)) return value as T
    this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${value}"`)
    return fallback
  }

  /** Comma-separated; `check` throws on a bad entry, whose message is reported. */
  list(name: string, check: (entry: string) => void): string[] {
    const entries = (this.raw(name) ?? '').split(',').map((e) => e.trim()).filter(Boolean)
    for (const entry of entries) {
      try {
        check(entry)
      } catch (error) {
        this.problems.push(`${name}: "${entry}" is not valid (${(error as Error).message})`)
      }
    }
    return entries
  }

  /** The content of the file the variable names (certificates and the like). */
  file(name: string): string | undefined {
    const path = this.raw(name)
    if (path === undefined) return undefined
    try {
      return readFileSync(path, 'utf8')
    } catch (error) {
      this.problems.push(`${name}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
      return undefined
    }
  }

  /** Comma-separated durations such as `250ms,5s,30s,5m,2h`. */
  durations(name: string, fallback: string): number[] {
    const value = this.raw(name)
    const parsed = parseDurations(value ?? fallback)
    if (parsed) return parsed
    this.problems.push(`${name} must be a comma-separated list of durations such as 5s,30s,5m,30m,2h (units ms, s, m, h), got "${value}"`)
    return parseDurations(fallback)!
  }

  /** JSON such as {"free":{"max_assets":10000,"max_bytes":10737418240},"team":{}}. */
  planLimits(name: string, fallback: Config['planLimits']): Config['planLimits'] {
    const value = this.raw(name)
    if (value === undefined) return fallback
    const problem = () => this.problems.push(`${name} must be JSON like {"free":{"max_assets":10000,"max_bytes":10737418240}}`)
    let parsed: unknown
    try {
      parsed = JSON.parse(value)
    } catch {
      problem()
      return fallback
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      problem()
      return fallback
    }
    const limits: Config['planLimits'] = {}
    for (const [plan, limit] of Object.entries(parsed as Record<string, Record<string, unknown>>)) {
      const valid = (v: unknown) => v === undefined || (Number.isSafeInteger(v) && (v as number) >= 0)
      if (typeof limit !== 'object' || limit === null || !valid(limit.max_assets) || !valid(limit.max_bytes)) {
        problem()
        return fallback
      }
      limits[plan] = {
        ...(limit.max_assets !== undefined && { maxAssets: limit.max_assets as number }),
        ...(limit.max_bytes !== undefined && { maxBytes: limit.max_bytes as number }),
      }
    }
    return limits
  }

  /** Never echoes the value back: URLs may carry passwords. */
  url(name: string, protocols: string[]): string | undefined {
    const value = this.raw(name)
    if (value === undefined) return undefined
    let parsed: URL
    try {
      parsed = new URL(value)
    } catch {
      this.problems.push(`${name} is not a valid URL`)
      return undefined
    }
    if (!protocols.includes(parsed.protocol)) {
      this.problems.push(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`)
      return undefined
    }
    return value
  }
}
