import { inTransaction, type Db } from '../../platform/db/index.js'
import { problems } from '../../platform/http/errors.js'
import { DEFAULT_THUMBNAIL_SIZE } from '../../platform/images/images.js'
import {
  BUILT_IN_PRESETS,
  DEFAULT_QUALITY,
  normaliseRendition,
  RenditionParamsError,
  type RenditionParams,
  type RenditionPreset,
  type RenditionSpec,
} from '../renditions/spec.js'
import * as store from './store.js'

/** How many presets an organization may keep: each adds a signed link to every asset record. */
export const MAX_PRESETS = 20
/** Organizations whose presets one process keeps; past it the longest kept goes first. */
const MAX_CACHED_ORGANIZATIONS = 10_000

/** A preset's parameters as a write sends them (null: left out); the name is the path's or the body's. */
export interface PresetParams {
  width?: number | null | undefined
  height?: number | null | undefined
  fit?: string | undefined
  format: string
  quality?: number | null | undefined
  background?: string | null | undefined
}

/**
 * A preset as the API shows it. The built-ins have no row: `thumbnail` is the 512 px WebP every asset
 * has, `original` the file as pushed (no size, no format of its own).
 */
export interface PresetView {
  name: string
  built_in: boolean
  width: number | null
  height: number | null
  fit: RenditionSpec['fit']
  format: RenditionSpec['format'] | null
  quality: number | null
  background: string | null
}

const BUILT_IN_VIEWS: PresetView[] = [
  { name: 'thumbnail', built_in: true, width: DEFAULT_THUMBNAIL_SIZE, height: DEFAULT_THUMBNAIL_SIZE, fit: 'inside', format: 'webp', quality: DEFAULT_QUALITY, background: null },
  { name: 'original', built_in: true, width: null, height: null, fit: 'inside', format: null, quality: null, background: null },
]

interface CachedPresets {
  presets: readonly RenditionPreset[]
  cachedAt: number
}

/**
 * An organization's rendition presets. Their writes are the owners' and admins'; their reads are on the
 * hot path (every asset record links every preset), so each process keeps an organization's presets for
 * `cacheTtlMs`: a write here clears them at once, other processes see it within the TTL. While the
 * presets are unchanged a reload answers the same array, so a consumer may compare by identity.
 */
export class PresetService {
  private readonly cache = new Map<string, CachedPresets>()
  private readonly lookups = new Map<string, Promise<readonly RenditionPreset[]>>()

  constructor(
    private readonly db: Db,
    private readonly options: { cacheTtlMs: number; maxSide: number },
  ) {}

  /**
   * The built-ins first, then the organization's presets by name, read from the database: the list is
   * where a write is checked, from whichever process serves it, and is not on the hot path.
   */
  async list(organizationId: string): Promise<PresetView[]> {
    const rows = await store.listPresets(this.db, organizationId)
    return [...BUILT_IN_VIEWS, ...rows.map((row) => presetView(presetOf(row)))]
  }

  async create(organizationId: string, name: string, params: PresetParams): Promise<PresetView> {
    refuseBuiltIn(name)
    const spec = this.specOf(params)
    const row = await inTransaction(this.db, async (tx) => {
      if ((await store.lockedPresetCount(tx, organizationId)) >= MAX_PRESETS) {
        throw problems.unprocessable('preset_limit_reached', `An organization can keep at most ${MAX_PRESETS} presets; delete one first.`)
      }
      return store.insertPreset(tx, organizationId, name, spec)
    })
    if (!row) throw problems.unprocessable('preset_name_taken', `The organization has a preset named "${name}" already; change that one instead.`, [{ pointer: '/name', detail: 'is taken' }])
    this.forget(organizationId)
    return presetView(presetOf(row))
  }

  /** Replaces every parameter of the preset: one left out takes its default. */
  async replace(organizationId: string, name: string, params: PresetParams): Promise<PresetView> {
    refuseBuiltIn(name)
    const row = await store.replacePreset(this.db, organizationId, name, this.specOf(params))
    if (!row) throw problems.notFound('Preset')
    this.forget(organizationId)
    return presetView(presetOf(row))
  }

  /** Links to the preset in records made before stay signed; they serve until they expire. */
  async delete(organizationId: string, name: string): Promise<void> {
    refuseBuiltIn(name)
    if (!(await store.deletePreset(this.db, organizationId, name))) throw problems.notFound('Preset')
    this.forget(organizationId)
  }

  /** The organization's own preset of this name (never a built-in: those are the thumbnail and the original file), or null. */
  async presetNamed(organizationId: string, name: string): Promise<RenditionPreset | null> {
    return (await this.presetsOf(organizationId)).find((preset) => preset.name === name) ?? null
  }

  /**
   * The organization's own presets by name, from this process's cache: no statement while it is fresh.
   * Concurrent misses share one read.
   */
  presetsOf(organizationId: string): Promise<readonly RenditionPreset[]> {
    const cached = this.cache.get(organizationId)
    if (cached && Date.now() - cached.cachedAt < this.options.cacheTtlMs) return Promise.resolve(cached.presets)
    return this.lookups.get(organizationId) ?? this.load(organizationId, cached?.presets)
  }

  /** Reads the presets and keeps them, unless a write forgot this read meanwhile: it may have read what the write replaced. */
  private load(organizationId: string, before: readonly RenditionPreset[] | undefined): Promise<readonly RenditionPreset[]> {
    const lookup = store
      .listPresets(this.db, organizationId)
      .then((rows) => {
        const loaded = rows.map(presetOf)
        const presets = before && samePresets(before, loaded) ? before : loaded
        if (this.lookups.get(organizationId) === lookup) this.remember(organizationId, presets)
        return presets
      })
      .finally(() => {
        if (this.lookups.get(organizationId) === lookup) this.lookups.delete(organizationId)
      })
    this.lookups.set(organizationId, lookup)
    return lookup
  }

  private remember(organizationId: string, presets: readonly RenditionPreset[]): void {
    this.cache.delete(organizationId)
    if (this.cache.size >= MAX_CACHED_ORGANIZATIONS) {
      const oldest = this.cache.keys().next().value
      if (oldest !== undefined) this.cache.delete(oldest)
    }
    this.cache.set(organizationId, { presets, cachedAt: Date.now() })
  }

  private forget(organizationId: string): void {
    this.cache.delete(organizationId)
    this.lookups.delete(organizationId)
  }

  /**
   * The parameters in the one normalised form renders use, so a preset's link is the link a render of
   * the same parameters gives. Out-of-range numbers are clamped as a render clamps them; nonsense and
   * `auto` (a record's link needs a concrete format) are 400.
   */
  private specOf(params: PresetParams): RenditionSpec {
    if (params.format === 'auto') throw problems.validation([{ pointer: '/format', detail: 'must be png, jpeg, webp or avif: a preset names a concrete format' }])
    try {
      const { spec } = normaliseRendition(withoutNulls(params), this.options.maxSide)
      return spec as RenditionSpec
    } catch (error) {
      if (!(error instanceof RenditionParamsError)) throw error
      throw problems.validation(error.problems.map(({ field, detail }) => ({ pointer: `/${field}`, detail })))
    }
  }
}

function refuseBuiltIn(name: string): void {
  if ((BUILT_IN_PRESETS as readonly string[]).includes(name)) {
    throw problems.unprocessable('preset_name_reserved', `"${name}" is a built-in preset: it cannot be created, changed or deleted.`, [{ pointer: '/name', detail: 'is reserved' }])
  }
}

function withoutNulls(params: PresetParams): RenditionParams {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== null)) as RenditionParams
}

function presetOf(row: store.PresetRow): RenditionPreset {
  const { name, width, height, fit, format, quality, background } = row
  return { name, spec: { width, height, fit, format, quality, background } }
}

function presetView(preset: RenditionPreset): PresetView {
  return { name: preset.name, built_in: false, ...preset.spec }
}

function samePresets(a: readonly RenditionPreset[], b: readonly RenditionPreset[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
