import type { FastifyBaseLogger } from 'fastify'
import { renditionKey, type BlobStore, type BlobStream, type ByteRange } from '../../platform/blobs/blob-store.js'
import { runPeriodically } from '../../platform/background/periodic.js'
import type { Db } from '../../platform/db/index.js'
import { AppError, problems, type FieldProblem } from '../../platform/http/errors.js'
import { ImageError, type ImageProcessor } from '../../platform/images/images.js'
import type { SignedLink, UrlSigner } from '../../platform/signed-urls.js'
import type { RenditionConfig } from '../../config.js'
import { fileLink } from '../assets/record.js'
import { findAssetFiles } from '../assets/store.js'
import { RenderQueue } from './render-queue.js'
import {
  BUILT_IN_PRESETS,
  negotiateFormat,
  normaliseRendition,
  outputSize,
  parseSpecSegment,
  renditionMimeType,
  renditionPath,
  RenditionParamsError,
  resolveFormat,
  specSegment,
  withinOutputLimits,
  type Clamped,
  type RenditionParams,
  type RenditionSpec,
  type Size,
} from './spec.js'
import * as store from './store.js'

/** An organization's preset by name (the presets module's cached lookup, or the table itself); undefined: none of that name. */
export type PresetNamed = (organizationId: string, name: string) => Promise<RenditionSpec | undefined>

export interface RenditionsDeps {
  db: Db
  blobs: BlobStore
  images: Pick<ImageProcessor, 'render'>
  signer: UrlSigner
  config: RenditionConfig
  presetNamed: PresetNamed
  logger: FastifyBaseLogger
}

/** What `GET /api/v1/assets/{id}/render` asked for, as its query reads. */
export interface RenderQuery extends RenditionParams {
  preset?: string | undefined
  version?: number | undefined
}

/** The answer to a render request, worked out without rendering. */
export interface RenditionPlan {
  link: SignedLink
  /** The size the file has (or will have once made). */
  width: number
  height: number
  /** `webp`, `png`…; for the built-in `original`, the original's own (`svg+xml` included). */
  format: string
  /** Values asked out of range and the values used: the `Rendition-Clamped` header. */
  clamped: Clamped[]
  /** The format was picked from `Accept` (`format=auto`): the answer carries `Vary: Accept`. */
  negotiated: boolean
  /** The rendition to make before a redirect, unless stored; null for the built-in presets, whose files exist. */
  rendition: { key: string; spec: RenditionSpec; source: SourceFile } | null
}

/** The file a rendition is made from. */
interface SourceFile extends Size {
  sha256: string
  blob_key: string
}

/** A rendition file behind a signed link, as `/files` serves it. */
export interface RenditionFile {
  key: string
  mimeType: string
  open(range?: ByteRange): Promise<BlobStream | null>
  stored(): Promise<boolean>
}

/** A use recorded at most this often per rendition: last use only orders eviction, an hour is fine enough. */
const TOUCH_EVERY_MS = 3_600_000
/** How often the recorded uses are written, orphans removed and the prefix's size checked. */
const MAINTENANCE_INTERVAL_MS = 60_000
/** Eviction frees down to this share of `RENDITIONS_MAX_BYTES`, so a full store does not evict on every new file. */
const EVICT_TO = 0.9
const ORPHANS_PER_PASS = 500

/**
 * Renditions on demand: the answer to a render request (a signed link, its size without rendering),
 * the files behind those links (made on first request, one make per file at a time in this process,
 * under the `RenderQueue`'s bound), and their storage: a row per file, last use recorded at most once an
 * hour per file and written in one statement, the least recently used evicted past `RENDITIONS_MAX_BYTES`.
 */
export class Renditions {
  private readonly queue: RenderQueue
  private readonly making = new Map<string, Promise<void>>()
  /** Uses not yet written, and when each rendition's last use was recorded (entries older than the hour are dropped). */
  private readonly pendingUses = new Map<string, Date>()
  private readonly touched = new Map<string, number>()
  private stopMaintenance: (() => Promise<void>) | undefined
  private evicting: Promise<void> | undefined
  /** The prefix's bytes at the last look, plus what this process stored since: a new file checks the limit only when this passes it. */
  private knownBytes = 0

  constructor(private readonly deps: RenditionsDeps) {
    this.queue = new RenderQueue(deps.config)
  }

  /** Renders under way and waiting in this process. */
  get load(): { running: number; waiting: number } {
    return this.queue.load
  }

  /**
   * The link, size and format of a rendition of the organization's asset, without rendering: 404 for an
   * asset it does not have, 400 `validation_failed` for nonsense or an unknown preset.
   */
  async plan(organizationId: string, id: string, query: RenderQuery, accept: string | undefined): Promise<RenditionPlan> {
    const source = await store.findRenditionSource(this.deps.db, organizationId, id, query.version)
    if (!source) throw problems.notFound('Asset')
    if (query.preset !== undefined) {
      const combined = (['width', 'height', 'fit', 'format', 'quality', 'background'] as const).filter((field) => query[field] !== undefined)
      if (combined.length > 0) throw problems.validation(combined.map((field) => ({ pointer: `/query/${field}`, detail: 'cannot be combined with `preset`, which sets it' })))
      if ((BUILT_IN_PRESETS as readonly string[]).includes(query.preset)) return this.builtIn(query.preset as (typeof BUILT_IN_PRESETS)[number], source)
      const preset = await this.deps.presetNamed(organizationId, query.preset)
      if (!preset) {
        const detail = 'no preset of this name in your organization (GET /api/v1/presets lists them)'
        throw problems.validation([{ pointer: '/query/preset', detail }], `There is no preset ${JSON.stringify(query.preset)}: thumbnail, original, or one of your organization's.`)
      }
      return this.custom(source, preset, [], false)
    }
    const { spec, clamped } = normalised(query, this.deps.config.maxSide)
    const format = spec.format === 'auto' ? negotiateFormat(accept, source.mime_type) : spec.format
    return this.custom(source, resolveFormat(spec, format), clamped, spec.format === 'auto')
  }

  /** Whether the plan's file is recorded as stored (the built-ins' always are): a redirect to it then makes nothing. */
  async isStored(plan: RenditionPlan): Promise<boolean> {
    return plan.rendition === null || (await store.isRecorded(this.deps.db, plan.rendition.key))
  }

  /**
   * Makes the rendition unless it is stored: one make per file at a time in this process, waiting its
   * turn in the render queue (503 `render_busy` when that is full).
   */
  ensure(rendition: NonNullable<RenditionPlan['rendition']>): Promise<void> {
    const under = this.making.get(rendition.key)
    if (under) return under
    const made = this.make(rendition).finally(() => this.making.delete(rendition.key))
    this.making.set(rendition.key, made)
    return made
  }

  /**
   * The rendition file a signed link names, made when opened if it is not stored; null for a segment
   * that is not a spec's canonical text, or a version that does not exist. The signature is the capability.
   */
  async file(id: string, version: number, segment: string): Promise<RenditionFile | null> {
    const spec = parseSpecSegment(segment)
    if (!spec) return null
    // The signature is the capability: the version's file whether its asset is live or in the trash.
    const source = await findAssetFiles(this.deps.db, id, version)
    if (!source) return null
    if (source.thumbnail_failure !== null) throw unrenderable(source.thumbnail_failure)
    const key = renditionKey(source.sha256, segment)
    const rendition = { key, spec: withinOutputLimits(spec, source, this.deps.config.maxSide, []), source }
    this.used(key)
    const stored = async () => {
      await this.ensure(rendition)
      return true
    }
    return {
      key,
      mimeType: renditionMimeType(spec.format),
      open: async (range) => (await this.deps.blobs.stream(key, range)) ?? ((await stored()) ? this.deps.blobs.stream(key, range) : null),
      stored,
    }
  }

  /** Writes the recorded uses, removes orphans and evicts past `RENDITIONS_MAX_BYTES` now and every minute, until `close`. */
  start(): void {
    this.stopMaintenance ??= runPeriodically(() => this.maintainLogged(), MAINTENANCE_INTERVAL_MS)
  }

  /** Stops the maintenance, waiting for one under way, and writes the uses recorded since. */
  async close(): Promise<void> {
    await this.stopMaintenance?.()
    await this.evicting
    await this.flushUses().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'the last uses of renditions could not be recorded'))
  }

  /**
   * One pass: the recorded uses written, the renditions of contents no asset has any more removed, and
   * the least recently used removed while the prefix holds more than `RENDITIONS_MAX_BYTES`.
   */
  async maintain(): Promise<{ evicted: number; orphans: number }> {
    await this.flushUses()
    const orphanContents = await store.orphanedRenditionContents(this.deps.db, ORPHANS_PER_PASS)
    const orphans = await this.remove(await store.forgetRenditionsOf(this.deps.db, orphanContents))
    return { evicted: await this.evict(), orphans }
  }

  /** Removes the least recently used renditions, down to 90% of `RENDITIONS_MAX_BYTES`, when the prefix holds more. */
  private async evict(): Promise<number> {
    await this.flushUses()
    const bytes = await store.storedBytes(this.deps.db)
    this.knownBytes = bytes
    if (bytes <= this.deps.config.maxBytes) return 0
    const keys = await store.forgetLeastRecentlyUsed(this.deps.db, bytes - Math.floor(this.deps.config.maxBytes * EVICT_TO))
    this.knownBytes = await store.storedBytes(this.deps.db)
    return this.remove(keys)
  }

  private async maintainLogged(): Promise<void> {
    await this.logged(async () => {
      const { evicted, orphans } = await this.maintain()
      if (evicted + orphans > 0) this.deps.logger.info({ evicted, orphans }, 'removed rendition files')
    })
  }

  /** After a new file: an eviction, one at a time, once the prefix may hold more than its limit (not only every minute). */
  private stored(bytes: number): void {
    this.knownBytes += bytes
    if (this.knownBytes <= this.deps.config.maxBytes) return
    this.evicting ??= this.logged(async () => {
      const evicted = await this.evict()
      if (evicted > 0) this.deps.logger.info({ evicted }, 'removed the least recently used rendition files')
    }).finally(() => (this.evicting = undefined))
  }

  private async logged(pass: () => Promise<void>): Promise<void> {
    try {
      await pass()
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'the maintenance of renditions failed; it runs again later')
    }
  }

  private async remove(keys: string[]): Promise<number> {
    await Promise.all(keys.map((key) => this.deps.blobs.delete(key)))
    return keys.length
  }

  private builtIn(name: (typeof BUILT_IN_PRESETS)[number], source: store.RenditionSource): RenditionPlan {
    const link = fileLink(this.deps.signer, source.id, source.version, name)
    const answer = { link, clamped: [], negotiated: false, rendition: null }
    if (name === 'original') return { ...answer, width: source.width, height: source.height, format: source.mime_type.replace(/^image\//, '') }
    return { ...answer, ...outputSize({ width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE, fit: 'inside' }, source), format: 'webp' }
  }

  private custom(source: store.RenditionSource, asked: RenditionSpec, clamped: Clamped[], negotiated: boolean): RenditionPlan {
    const spec = withinOutputLimits(asked, source, this.deps.config.maxSide, clamped)
    const key = renditionKey(source.sha256, specSegment(spec))
    return {
      link: this.deps.signer.sign(renditionPath(source.id, source.version, spec)),
      ...outputSize(spec, source),
      format: spec.format,
      clamped,
      negotiated,
      rendition: { key, spec, source },
    }
  }

  private async make({ key, spec, source }: NonNullable<RenditionPlan['rendition']>): Promise<void> {
    if (await this.deps.blobs.exists(key)) return
    const created = await this.queue.run(async () => {
      // Read only once a slot is ours: a waiting render holds no original in memory.
      const original = await this.deps.blobs.get(source.blob_key)
      if (!original) throw problems.notFound('File')
      try {
        return (await this.deps.images.render(original, spec)).data
      } catch (error) {
        if (error instanceof ImageError) throw unrenderable(error.message)
        throw error
      }
    })
    // The row first: a crash before the file is written leaves a row whose file is made again when
    // asked for, never a file that nothing records (and so nothing would ever remove).
    await store.recordRendition(this.deps.db, key, source.sha256, created.length)
    await this.deps.blobs.putAs(key, created)
    this.stored(created.length)
  }

  /** Records a use of `key`, at most once an hour; written by the next maintenance pass. */
  private used(key: string): void {
    const now = Date.now()
    if (now - (this.touched.get(key) ?? 0) < TOUCH_EVERY_MS) return
    this.touched.set(key, now)
    this.pendingUses.set(key, new Date(now))
  }

  private async flushUses(): Promise<void> {
    const uses = new Map(this.pendingUses)
    this.pendingUses.clear()
    const stale = Date.now() - TOUCH_EVERY_MS
    for (const [key, at] of this.touched) if (at < stale) this.touched.delete(key)
    await store.touchRenditions(this.deps.db, uses)
  }
}

/** The longest side of a thumbnail (the built-in preset `thumbnail`). */
const THUMBNAIL_SIDE = 512

/** The spec a query asks for, its nonsense a 400 pointing at each field. */
function normalised(query: RenderQuery, maxSide: number): ReturnType<typeof normaliseRendition> {
  try {
    return normaliseRendition(query, maxSide)
  } catch (error) {
    if (!(error instanceof RenditionParamsError)) throw error
    throw problems.validation(error.problems.map(({ field, detail }): FieldProblem => ({ pointer: `/query/${field}`, detail })))
  }
}

function unrenderable(reason: string): AppError {
  return new AppError('thumbnail_unavailable', `This asset's image cannot be rendered: ${reason} The original is kept as it was pushed.`)
}
