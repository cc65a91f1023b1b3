import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import cookie from '@fastify/cookie'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import type { Config } from './config.js'
import type { DatabaseHandle, Db } from './platform/db/index.js'
import type { App } from './platform/http/app-type.js'
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './platform/http/error-handler.js'
import { registerIdempotency } from './platform/http/idempotency.js'
import { registerJsonParsing } from './platform/http/json-body.js'
import { registerOpenApi } from './platform/http/openapi.js'
import { answerStalledBodies, serverTimeoutOptions } from './platform/http/slow-clients.js'
import { requireRouteAuth, type DeclaredRoute } from './platform/http/route-auth.js'
import { registerRequestRules } from './platform/http/request-rules.js'
import { serveStaticFiles, webAppPages } from './platform/http/web-app.js'
import { MemoryStore, RateLimiter, RedisStore } from './platform/http/rate-limit.js'
import { SHARED_SCHEMAS } from './platform/http/schemas.js'
import { registerValidation } from './platform/http/validation.js'
import { loggerOptions } from './platform/logger.js'
import { healthRoutes } from './modules/health/routes.js'
import { appKeyRoutes, publicKeyRoutes } from './modules/keys/routes.js'
import { ApiKeySchema, CurrentKeySchema } from './modules/keys/schemas.js'
import { ApiKeyService } from './modules/keys/service.js'
import { appCatalogRoutes, publicCatalogRoutes } from './modules/catalog/routes.js'
import { CatalogService } from './modules/catalog/service.js'
import { AssetFiles, fileRoutes } from './modules/assets/files.js'
import type { CollectionMembership } from './modules/assets/push.js'
import { appAssetRoutes, publicAssetRoutes } from './modules/assets/routes.js'
import { AssetSchema } from './modules/assets/schemas.js'
import type { AssetDerivation } from './modules/assets/record.js'
import { AssetService } from './modules/assets/service.js'
import { Thumbnails } from './modules/assets/thumbnails.js'
import { AnalysisDerivation } from './modules/assets/analysis.js'
import { ForegroundActivity } from './platform/background/foreground.js'
import { PaletteAnalysis } from './modules/colors/palette-analysis.js'
import { publicColorRoutes } from './modules/colors/routes.js'
import { metadataAnalysis } from './modules/assets/metadata.js'
import { provenanceAnalysis } from './modules/provenance/analysis.js'
import { PerceptualHashAnalysis } from './modules/duplicates/perceptual-hash-analysis.js'
import { publicDuplicateRoutes } from './modules/duplicates/routes.js'
import { DuplicatesService } from './modules/duplicates/service.js'
import { DuplicateGroupSchema, LookalikeAssetSchema } from './modules/duplicates/schemas.js'
import { CollectionMembers } from './modules/collections/membership.js'
import { appCollectionRoutes, publicCollectionRoutes, shareRoutes } from './modules/collections/routes.js'
import { CollectionSchema, QuerySchema } from './modules/collections/schemas.js'
import { CollectionService } from './modules/collections/service.js'
import type { BlobStore } from './platform/blobs/blob-store.js'
import { createBlobStore } from './platform/blobs/create.js'
import { C2paReader } from './platform/images/c2pa.js'
import { ImageProcessor } from './platform/images/images.js'
import { createSafeFetcher } from './platform/net/safe-fetch.js'
import { UrlSigner } from './platform/signed-urls.js'
import { createFigmaApi } from './modules/imports/figma-client.js'
import { ImportJob } from './modules/imports/job.js'
import { publicImportRoutes } from './modules/imports/routes.js'
import type { ImportPushes } from './modules/imports/run.js'
import { ImportNodeSchema, ImportSchema } from './modules/imports/schemas.js'
import { ImportService } from './modules/imports/service.js'
import { Embeddings } from './modules/search/embeddings.js'
import { ImageEmbeddings } from './modules/search/image-embeddings.js'
import { organizationAiStatus, searchReadiness } from './modules/search/readiness.js'
import { PgVector } from './modules/search/vector-index.js'
import { publicSearchRoutes } from './modules/search/routes.js'
import { SearchHitSchema, SimilarAssetSchema } from './modules/search/schemas.js'
import { SearchService } from './modules/search/service.js'
import { WebhookDelivery } from './modules/webhooks/delivery.js'
import { webhookRoutes } from './modules/webhooks/routes.js'
import { webhooksSection } from './modules/webhooks/payloads.js'
import { WebhookService } from './modules/webhooks/service.js'
import { SERVICE_VERSION } from './platform/version.js'
import { invitationRoutes, passwordResetRoutes, sessionRoutes, signInRoutes } from './modules/auth/routes.js'
import { PasswordResets } from './modules/auth/password-resets.js'
import { passwordResetAccountLimit, signInAccountLimit } from './modules/auth/sign-in-limit.js'
import type { Mailer } from './platform/mail/mailer.js'
import { AuthService } from './modules/auth/service.js'
import { SessionGuard } from './modules/auth/session-guard.js'
import { jobRoutes, orgRoutes } from './modules/orgs/routes.js'
import { mcpRoutes } from './modules/mcp/routes.js'
import { renditionRoutes } from './modules/renditions/routes.js'
import { Renditions } from './modules/renditions/service.js'
import { OrgService } from './modules/orgs/service.js'
import { scheduleTrashPurge } from './modules/trash/purge.js'
import { publicTrashRoutes } from './modules/trash/routes.js'
import { TrashedAssetSchema } from './modules/trash/schemas.js'
import { TrashService } from './modules/trash/service.js'
import { appPresetRoutes, publicPresetRoutes } from './modules/presets/routes.js'
import { PresetService } from './modules/presets/service.js'
import type { FigmaApi } from './modules/imports/figma-api.js'
import { FigmaWebhooks, type FileSyncs } from './modules/integrations/figma-hooks.js'
import { figmaImageOrigins, FigmaOutlines } from './modules/integrations/outline.js'
import { figmaEventRoutes, figmaIntegrationRoutes } from './modules/integrations/routes.js'
import { FigmaConnections, storedFigmaTokens } from './modules/integrations/service.js'

const CLIENT_REQUEST_ID = /^[\w.:-]{1,64}$/

/** The caller's X-Request-Id when it is a plain token (it ends up in logs), else a fresh UUID. */
function requestId(request: IncomingMessage): string {
  const sent = request.headers['x-request-id']
  return typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID()
}

export interface AppDeps {
  config: Config
  database: DatabaseHandle
  redis?: Redis | undefined
  /** Prefix for this app's Redis keys, so test apps sharing one Redis do not share counters. */
  redisNamespace?: string
  logger?: FastifyBaseLogger
  /** Sends email (invitations, reset links); absent when the server has no `SMTP_URL`. Its creator closes it. */
  mailer?: Mailer | undefined
  /** The OpenAPI document the app generates: the served v1 one (default), or the app's own (scripts/openapi.ts). */
  openApiDocument?: 'v1' | 'app'
}

export interface Services {
  orgs: OrgService
  keys: ApiKeyService
  catalog: CatalogService
}

/** Starts background work that a committed change made due (the HTTP app's runners; none in a CLI). */
export interface BackgroundWake {
  textChanged(): void
  eventsCommitted(): void
}

/** What follows an organization's AI setting: its texts and images parked or due again, in the setting's transaction. */
interface AiFollower {
  followAiSetting(tx: Db, organizationId: string, enabled: boolean): Promise<void>
  afterCommit(): void
}

/** The modules' services over one database; shared by the HTTP app and the operator commands. */
export function createServices(
  db: Db,
  logger: FastifyBaseLogger,
  apiKeyCacheTtlMs: number,
  ai: readonly AiFollower[],
): Services {
  const catalog = new CatalogService(db)
  return {
    catalog,
    orgs: new OrgService(db, {
      organizationCreated: (organizationId, tx) => catalog.seedDefaults(organizationId, tx),
      aiChanged: async (organizationId, enabled, tx) => {
        for (const follower of ai) await follower.followAiSetting(tx, organizationId, enabled)
      },
      afterAiChanged: () => ai.forEach((follower) => follower.afterCommit()),
    }),
    keys: new ApiKeyService(db, logger, apiKeyCacheTtlMs),
  }
}

/** The asset pipeline: the process's files, the derivations and the guarded outbound client, from the configuration. */
function createAssetService(
  config: Config,
  db: Db,
  modules: { catalog: CatalogService; collections: CollectionMembership; derivations: readonly AssetDerivation[]; files: ProcessFiles; presets: PresetService },
  wake: BackgroundWake,
  logger: FastifyBaseLogger,
) {
  const { catalog, collections, derivations, files, presets } = modules
  const fetcher = createSafeFetcher({ allowlist: config.outboundAllowlist, ca: config.outboundCa })
  const signer = new UrlSigner(config.appSecret, config.publicBaseUrl)
  const afterEventsCommitted = () => wake.eventsCommitted()
  const trash = new TrashService({ db, logger, blobs: files.blobs, signer, presets, derivations, afterEventsCommitted, retentionDays: config.trashRetentionDays })
  const assets = new AssetService({
    db,
    logger,
    catalog,
    ...files,
    derivations,
    fetcher,
    signer,
    presets,
    planLimits: config.planLimits,
    imageFetchTimeoutMs: config.imageFetchTimeoutMs,
    listCacheRecords: config.listCacheRecords,
    exactTotalUpTo: config.listExactTotalUpTo,
    afterEventsCommitted,
    collections,
    trash,
  })
  return { assets, trash, signer, close: () => fetcher.close() }
}

/**
 * The organization's Figma integration: its stored token, its Figma webhooks (whose events re-run the
 * file's imports through `syncs`), and file outlines, over the process's Figma client `api`.
 */
function createFigmaIntegration(config: Config, db: Db, logger: FastifyBaseLogger, api: FigmaApi, syncs: FileSyncs) {
  const webhooks: FigmaWebhooks = new FigmaWebhooks({
    db,
    figma: api,
    storedToken: (organizationId) => connections.token(organizationId),
    syncs,
    publicBaseUrl: config.publicBaseUrl,
    outboundAllowlist: config.outboundAllowlist,
    debounceMs: config.figma.webhookDebounceMs,
    logger,
  })
  const connections = new FigmaConnections({
    db,
    figma: api,
    appSecret: config.appSecret,
    logger,
    beforeDisconnect: (organizationId, token) => webhooks.deleteAllAtFigma(organizationId, token),
  })
  return { connections, webhooks, outlines: new FigmaOutlines({ figma: api, logger }) }
}

export type BuiltApp = App & {
  /** Every route as registered, with who may call it; HEAD routes Fastify adds for GETs included. */
  routes: readonly DeclaredRoute[]
  /** The process is about to stop: /ready answers 503 and responses close their connections; requests are still served. */
  startDraining: () => void
  /** The process's one blob store (its files, and the sweep's). */
  blobs: BlobStore
  services: Services & {
    assets: AssetService
    trash: TrashService
    presets: PresetService
    collections: CollectionService
    search: SearchService
    duplicates: DuplicatesService
    embeddings: Embeddings
    imageEmbeddings: ImageEmbeddings
    /** The database's pgvector: whether it is there, its HNSW indexes' types, its scan settings. */
    pgvector: PgVector
    webhooks: WebhookService
    webhookDelivery: WebhookDelivery
    thumbnails: Thumbnails
    renditions: Renditions
    imports: ImportService
    /** Runs queued imports, started by a process that runs background work. */
    importJob: ImportJob
    /** The organizations' stored Figma tokens (the import engine reads them with `token`). */
    figmaConnections: FigmaConnections
    /** The work that follows a change to an asset, in the order every view of the queues lists it. */
    derivations: readonly AssetDerivation[]
    /** The background purge of the trash, started by a process that runs background work. */
    trashPurge: { start(): void }
    passwordResets: PasswordResets
  }
}

/** Webhook sending for this configuration, with its own guarded client (closed by `close`). */
function createWebhookDelivery(config: Config, db: Db, logger: FastifyBaseLogger) {
  const fetcher = createSafeFetcher({ allowlist: config.outboundAllowlist, ca: config.outboundCa, userAgent: `AssetLibrary-Webhooks/${SERVICE_VERSION}` })
  const delivery = new WebhookDelivery({
    db,
    config: config.webhooks,
    appSecret: config.appSecret,
    fetcher,
    logger,
    databaseUrl: config.databaseUrl,
  })
  return { delivery, fetcher, close: () => fetcher.close() }
}

/** A process's one blob store and its one bound on image decoding: built once, at the root of the process, and passed in. */
export interface ProcessFiles {
  blobs: BlobStore
  images: ImageProcessor
}

export function createProcessFiles(config: Config): ProcessFiles {
  return { blobs: createBlobStore(config), images: new ImageProcessor({ maxConcurrent: config.imageConcurrency, svgRender: config.svgRender, renderMaxSide: config.renditions.maxSide }) }
}

/**
 * The work that follows a change to an asset. The list is what the push queues, what the runners,
 * `asset-library jobs`, the app's Processing panel and /ready go over, in this order: a new derivation
 * is one module file implementing `Derivation`, one migration for its queue, and one entry here.
 */
export function createDerivations(config: Config, database: DatabaseHandle, logger: FastifyBaseLogger, files: ProcessFiles, foreground?: ForegroundActivity) {
  const thumbnails = new Thumbnails({ db: database.db, ...files, logger, databaseUrl: config.databaseUrl, foreground })
  const pgvector = new PgVector(database.db)
  const embeddings = new Embeddings({ database, config: config.embeddings, logger, pgvector, databaseUrl: config.databaseUrl })
  const imageEmbeddings = new ImageEmbeddings({ database, config: config.imageEmbeddings, logger, ...files, pgvector, databaseUrl: config.databaseUrl, foreground })
  const analysisDeps = { db: database.db, blobs: files.blobs, logger, databaseUrl: config.databaseUrl, foreground }
  const perceptualHashes = new AnalysisDerivation(
    new PerceptualHashAnalysis({ images: files.images, nearDuplicateDistance: config.analysis.nearDuplicateDistance }),
    analysisDeps,
  )
  const palettes = new AnalysisDerivation(new PaletteAnalysis(files.images), analysisDeps)
  const metadata = new AnalysisDerivation(metadataAnalysis({ exposeGps: config.analysis.exposeGps }), analysisDeps)
  const provenance = new AnalysisDerivation(provenanceAnalysis(new C2paReader()), analysisDeps)
  const list: readonly AssetDerivation[] = [thumbnails, embeddings, imageEmbeddings, perceptualHashes, palettes, metadata, provenance]
  return { thumbnails, embeddings, imageEmbeddings, pgvector, list }
}

/**
 * The background work of one process, the HTTP app's or a worker's: the derivations and webhook sending.
 * `foreground`: the HTTP app's requests, which the background runners leave the CPU to (a worker has none).
 */
export function createBackgroundWork(config: Config, database: DatabaseHandle, logger: FastifyBaseLogger, files: ProcessFiles, foreground?: ForegroundActivity) {
  const derivations = createDerivations(config, database, logger, files, foreground)
  const { embeddings, imageEmbeddings } = derivations
  const webhooks = createWebhookDelivery(config, database.db, logger)
  let stopPurge: (() => Promise<void>) | undefined
  const trashPurge = {
    /** Purges the trash now and every `TRASH_PURGE_INTERVAL_MS` in this process, until close. */
    start: () => {
      stopPurge ??= scheduleTrashPurge(database.db, files.blobs, { intervalMs: config.trashPurgeIntervalMs, logger })
    },
  }
  return {
    embeddings,
    imageEmbeddings,
    pgvector: derivations.pgvector,
    thumbnails: derivations.thumbnails,
    derivations: derivations.list,
    webhooks,
    trashPurge,
    /** Runs every derivation's job, the webhook sending and the trash's purge in this process. */
    start: async () => {
      await Promise.all([...derivations.list.map((derivation) => derivation.start()), webhooks.delivery.start()])
      trashPurge.start()
    },
    /**
     * Stops claiming and lets work in flight finish within half the shutdown budget (the HTTP side and
     * the database need the rest), then closes the outbound clients; before the database closes.
     */
    close: async () => {
      const budget = Math.floor(config.shutdownTimeoutMs / 2)
      await Promise.all([...derivations.list.map((derivation) => derivation.stop(budget)), webhooks.delivery.stop(budget), stopPurge?.()])
      await Promise.all([embeddings.close(), imageEmbeddings.close(), webhooks.close()])
    },
  }
}

/** The organization's stored Figma token, unsealed, or null. */
export type StoredFigmaToken = (organizationId: string) => Promise<string | null>

/**
 * The import job over a push pipeline (the HTTP app's, or a worker's own), with its own guarded client
 * for Figma. `close` stops the job within half the shutdown budget, then closes the client.
 */
function createImportWork(config: Config, database: DatabaseHandle, logger: FastifyBaseLogger, assets: ImportPushes, storedToken: StoredFigmaToken) {
  const fetcher = createSafeFetcher({ allowlist: config.outboundAllowlist, ca: config.outboundCa, userAgent: `AssetLibrary-Import/${SERVICE_VERSION}` })
  const figma = createFigmaApi({ fetcher, apiUrl: config.figma.apiUrl, requestTimeoutMs: config.figma.requestTimeoutMs, maxRetryWaitMs: config.figma.maxRetryWaitMs })
  const job = new ImportJob({
    db: database.db,
    appSecret: config.appSecret,
    figma,
    assets,
    storedToken,
    logger,
    concurrency: config.figma.importConcurrency,
    databaseUrl: config.databaseUrl,
  })
  return {
    /** The client to Figma, shared with the integration (the connection check, webhooks, outlines). */
    figma,
    job,
    close: async () => {
      await job.stop(Math.floor(config.shutdownTimeoutMs / 2))
      await figma.close()
      await fetcher.close()
    },
  }
}

/**
 * A worker's import job: a push pipeline of its own (the HTTP app's is built in buildApp), over the
 * worker's derivations and webhook sending. `close` before the background work's.
 */
export function createWorkerImports(config: Config, database: DatabaseHandle, logger: FastifyBaseLogger, files: ProcessFiles, background: ReturnType<typeof createBackgroundWork>) {
  const { db } = database
  const wake: BackgroundWake = { textChanged: () => background.embeddings.afterCommit(), eventsCommitted: () => background.webhooks.delivery.eventsCommitted() }
  const presets = new PresetService(db, { cacheTtlMs: config.presetsCacheTtlMs, maxSide: config.renditions.maxSide })
  const modules = { catalog: new CatalogService(db), collections: new CollectionMembers(db), derivations: background.derivations, files, presets }
  const pipeline = createAssetService(config, db, modules, wake, logger)
  const storedToken = storedFigmaTokens({ db, appSecret: config.appSecret, logger })
  const work = createImportWork(config, database, logger, pipeline.assets, storedToken)
  return {
    job: work.job,
    close: async () => {
      await work.close()
      await pipeline.close()
    },
  }
}

/** Platform plugins and module routes, wired from the dependencies given; nothing global. */
export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const { config, database } = deps
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: loggerOptions(config.logLevel) }),
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    genReqId: requestId,
    routerOptions: { ignoreTrailingSlash: false },
    frameworkErrors,
    clientErrorHandler,
    ...serverTimeoutOptions(config.httpTimeouts),
  }).withTypeProvider<TypeBoxTypeProvider>() as App

  for (const schema of [...SHARED_SCHEMAS, ApiKeySchema, CurrentKeySchema, AssetSchema, TrashedAssetSchema, QuerySchema, CollectionSchema, SearchHitSchema, SimilarAssetSchema, LookalikeAssetSchema, DuplicateGroupSchema, ImportSchema, ImportNodeSchema]) {
    app.addSchema(schema)
  }
  registerValidation(app)
  registerJsonParsing(app)
  // First of the onRequest hooks: a request refused by a later one still has its body's deadline.
  answerStalledBodies(app, config.httpTimeouts.bodyIdleMs)
  registerRequestRules(app)
  const webApp = webAppPages(config.webDir, config.publicBaseUrl, app.log, figmaImageOrigins(config.figma.apiUrl))
  registerErrorHandling(app, webApp.page)
  // Responses finished during shutdown close their keep-alive connection, or it would hold the close open;
  // during the drain before it too, so a client connected to this process directly reconnects elsewhere.
  let draining = false
  const startDraining = () => {
    draining = true
  }
  app.addHook('preClose', async () => startDraining())
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
    if (draining) reply.header('connection', 'close')
  })
  await app.register(cookie)

  const limitStore = deps.redis
    ? new RedisStore(deps.redis, deps.redisNamespace ?? 'asset-library:rate-limit:', app.log)
    : new MemoryStore(config.rateLimits.windowMs)
  const limiter = new RateLimiter(limitStore, config.rateLimits.windowMs)
  // Closes the store both limiters count in.
  app.addHook('onClose', async () => limiter.close())
  const accountLimit = signInAccountLimit(new RateLimiter(limitStore, config.rateLimits.signInAccountWindowMs), config.rateLimits.signInAccount)
  const resetLimit = passwordResetAccountLimit(new RateLimiter(limitStore, config.rateLimits.passwordResetAccountWindowMs), config.rateLimits.passwordResetAccount)
  const files = createProcessFiles(config)
  const { blobs } = files
  const foreground = new ForegroundActivity()
  // The requests in the `expensive` bucket (pushes, new versions, search, imports) are what the analyses
  // make room for; the other API requests are reads, beside which they go on at a pace. The response's
  // `close` comes once it is sent or its connection is gone, so every request ends once.
  app.addHook('onRequest', async (request, reply) => {
    const auth = (request.routeOptions.config as { auth?: { bucket?: unknown } }).auth
    if (auth) reply.raw.once('close', foreground.begin(auth.bucket === 'expensive' ? 'costly' : 'read'))
  })
  const background = createBackgroundWork(config, database, app.log, files, foreground)
  const { embeddings, imageEmbeddings, derivations } = background
  const webhookDelivery = background.webhooks.delivery
  let closeImports = async (): Promise<void> => undefined
  // Background work a caller started stops before the database it uses is closed, and before the files it uses.
  app.addHook('onClose', async () => {
    await closeImports()
    await background.close()
    await blobs.close?.()
    files.images.close()
  })
  const wake: BackgroundWake = { textChanged: () => embeddings.afterCommit(), eventsCommitted: () => webhookDelivery.eventsCommitted() }
  const services = createServices(database.db, app.log, config.apiKeyCacheTtlMs, [embeddings, imageEmbeddings])
  const { orgs, keys, catalog } = services
  const members = new CollectionMembers(database.db)
  const presets = new PresetService(database.db, { cacheTtlMs: config.presetsCacheTtlMs, maxSide: config.renditions.maxSide })
  const assetPipeline = createAssetService(config, database.db, { catalog, collections: members, derivations, files, presets }, wake, app.log)
  const { assets, trash, signer } = assetPipeline
  app.addHook('onClose', assetPipeline.close)
  const storedToken = storedFigmaTokens({ db: database.db, appSecret: config.appSecret, logger: app.log })
  const importWork = createImportWork(config, database, app.log, assets, storedToken)
  closeImports = importWork.close
  const imports = new ImportService({ db: database.db, appSecret: config.appSecret, assets, storedToken, job: importWork.job })
  const figma = createFigmaIntegration(config, database.db, app.log, importWork.figma, imports)
  const search = new SearchService({ db: database.db, logger: app.log, assets, orgs, embeddings, images: imageEmbeddings, pgvector: background.pgvector, efSearch: config.vectorEfSearch })
  const duplicates = new DuplicatesService({ db: database.db, assets, catalog, trash, derivations, afterEventsCommitted: wake.eventsCommitted })
  const assetFiles = new AssetFiles({ db: database.db, blobs, thumbnails: background.thumbnails })
  const renditions = new Renditions({
    db: database.db,
    blobs,
    images: files.images,
    signer,
    config: config.renditions,
    presetNamed: async (organizationId, name) => (await presets.presetNamed(organizationId, name))?.spec,
    logger: app.log,
  })
  renditions.start()
  // Before the files close: its last pass writes the uses recorded since the one before.
  app.addHook('onClose', () => renditions.close())
  const collections = new CollectionService(database.db, assets, assetFiles, renditions, presets, members, signer, config.publicBaseUrl, config.appSecret, wake.eventsCommitted)
  const webhooks = new WebhookService({
    db: database.db,
    appSecret: config.appSecret,
    fetcher: background.webhooks.fetcher,
    deliveriesDue: () => webhookDelivery.deliveriesDue(),
  })
  const { mailer } = deps
  const auth = new AuthService(database.db, orgs, wake.eventsCommitted, accountLimit, config.invitationTtlDays, { mailer, publicBaseUrl: config.publicBaseUrl, logger: app.log })
  const resets = new PasswordResets({ db: database.db, orgs, mailer, limit: resetLimit, publicBaseUrl: config.publicBaseUrl, logger: app.log })
  // Links being sent finish before the database closes.
  app.addHook('onClose', () => resets.settled())
  const guard = new SessionGuard(auth, orgs, config.appSecret, config.publicBaseUrl)

  // Before any route: every route, the plugins' included, must declare who may call it.
  const routes = requireRouteAuth(app, {
    authenticate: (header) => keys.authenticate(header),
    sessions: guard,
    limiter,
    rateLimits: config.rateLimits,
    publicBaseUrl: config.publicBaseUrl,
  })
  // After the guard's hooks, so the caller is known (and counted) when a key is looked at.
  registerIdempotency(app, database)
  await registerOpenApi(app, deps.openApiDocument, webhooksSection)
  if (webApp.built) await serveStaticFiles(app, config.webDir)
  healthRoutes(app, { database, search: () => searchReadiness(embeddings, imageEmbeddings), derivations, blobs, draining: () => draining })
  // In the order openapi/app.json lists them.
  sessionRoutes(app, { auth, orgs, guard, emailConfigured: mailer !== undefined, exactTotalsUpTo: config.listExactTotalUpTo })
  orgRoutes(app, { orgs, planLimits: config.planLimits, trashRetentionDays: config.trashRetentionDays, publicBaseUrl: config.publicBaseUrl, aiStatus: (organizationId) => organizationAiStatus(embeddings, imageEmbeddings, organizationId) })
  jobRoutes(app, { derivations })
  invitationRoutes(app, { auth })
  signInRoutes(app, { auth, orgs, guard })
  passwordResetRoutes(app, { resets })
  appKeyRoutes(app, { keys })
  appCatalogRoutes(app, { catalog })
  appPresetRoutes(app, { presets })
  appCollectionRoutes(app, { collections })
  appAssetRoutes(app, { assets })
  fileRoutes(app, {
    files: assetFiles,
    renditions,
    signer,
    shareServes: (share, assetId) => collections.shareServes(share, assetId),
    ...(config.filesRedirect === 'presigned' && { directLinks: blobs }),
  })
  shareRoutes(app, { collections, zipMaxBytes: config.shareZipMaxBytes })
  webhookRoutes(app, { webhooks })
  figmaIntegrationRoutes(app, figma)
  figmaEventRoutes(app, figma)
  publicKeyRoutes(app, { keys, orgs, rateLimits: config.rateLimits })
  publicCatalogRoutes(app, { catalog })
  publicPresetRoutes(app, { presets })
  publicAssetRoutes(app, { assets })
  renditionRoutes(app, { renditions })
  publicTrashRoutes(app, { trash })
  publicCollectionRoutes(app, { collections })
  publicSearchRoutes(app, { search, duplicates })
  publicDuplicateRoutes(app, { duplicates })
  publicColorRoutes(app)
  publicImportRoutes(app, { imports })
  mcpRoutes(app)

  return Object.assign(app, { routes, startDraining, blobs, services: { ...services, assets, trash, presets, trashPurge: background.trashPurge, collections, search, duplicates, embeddings, imageEmbeddings, pgvector: background.pgvector, webhooks, webhookDelivery, thumbnails: background.thumbnails, renditions, imports, importJob: importWork.job, derivations, figmaConnections: figma.connections, passwordResets: resets } })
}
