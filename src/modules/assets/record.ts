import type { Derivation } from '../../platform/background/derivation.js'
import type { ActorKind } from '../../platform/db/schema.js'
import type { Caller } from '../../platform/http/route-auth.js'
import type { UrlSigner } from '../../platform/signed-urls.js'
import { renditionPath, type RenditionPreset } from '../renditions/spec.js'
import type { AssetWithRelations } from './store.js'

/**
 * An asset as the API shows it, with its signed file links: what the list, the push's event and the
 * derivations all read. A leaf of the module, so the push, the service and the derivations share it
 * without importing each other. `presets` are the organization's own (see `PresetSource`): each is linked
 * in `renditions` after the built-ins.
 */
export function assetRecord(row: AssetWithRelations, signer: UrlSigner, presets: readonly RenditionPreset[]) {
  const thumbnail = thumbnailLink(signer, row.id, row.version)
  const original = fileLink(signer, row.id, row.version, 'original')
  const renditions: { thumbnail: string; original: string; [preset: string]: string } = { thumbnail: thumbnail.url, original: original.url }
  for (const preset of presets) renditions[preset.name] = signer.sign(renditionPath(row.id, row.version, preset.spec)).url
  return {
    id: row.id,
    title: row.title,
    asset_type: row.asset_type,
    client: row.client,
    product: row.product,
    tags: row.tags,
    source_url: row.source_url,
    created_by_ai: row.created_by_ai,
    mime_type: row.mime_type,
    width: row.width,
    height: row.height,
    byte_size: Number(row.byte_size),
    sha256: row.sha256,
    thumbnail_url: thumbnail.url,
    thumbnail_expires_at: thumbnail.expiresAt.toISOString(),
    thumbnail_status: row.thumbnail_failure === null ? ('available' as const) : ('failed' as const),
    thumbnail_failure: row.thumbnail_failure,
    original_url: original.url,
    renditions,
    version: row.version,
    external_id: row.external_id,
    collections: row.collections,
    near_duplicates: row.near_duplicates,
    colors: row.colors,
    metadata: row.metadata,
    provenance: row.provenance,
    created_by: recordedActor(row.created_by_kind, row.created_by_name),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

export type AssetRecord = ReturnType<typeof assetRecord>

/** Where the records find an organization's own presets: the presets module's per-process cache. */
export interface PresetSource {
  presetsOf(organizationId: string): Promise<readonly RenditionPreset[]>
}

/**
 * The path of one version's file: the version is part of it (and so of the signature), so a link always
 * serves the bytes it was made for and a cache may keep them for good.
 */
export function filePath(id: string, version: number, variant: 'thumbnail' | 'original'): string {
  return `/files/assets/${id}/versions/${version}/${variant}`
}

/** The signed link to a version's file. */
export function fileLink(signer: UrlSigner, id: string, version: number, variant: 'thumbnail' | 'original') {
  return signer.sign(filePath(id, version, variant))
}

/** The signed link to a version's thumbnail. */
export function thumbnailLink(signer: UrlSigner, id: string, version: number) {
  return fileLink(signer, id, version, 'thumbnail')
}

/**
 * A change to an asset that derived data follows: a push (`created`) or an edit (`updated`), with the
 * record after it; `newFile` when the edit made a new version, whose file the thumbnail follows.
 */
export interface AssetChange {
  kind: 'created' | 'updated'
  organizationId: string
  record: AssetRecord
  newFile?: boolean
}

/** Work that follows a change to an asset, as the assets module queues and wakes it (see platform/background/derivation.ts). */
export type AssetDerivation = Derivation<AssetChange>

/** Who did something to an asset, as its history shows it: an API key or a user, by the name it had then. */
export interface Actor {
  kind: ActorKind
  name: string
}

/** An actor as a row records it, in two columns; null where it was not recorded (rows older than their migration). */
export function recordedActor(kind: ActorKind | null, name: string | null): Actor | null {
  return kind === null ? null : { kind, name: name ?? '' }
}

/** A user who never gave a name is shown by email, as the app shows members. */
export function actorOf(caller: Caller): Actor {
  return caller.via === 'key' ? { kind: 'key', name: caller.name } : { kind: 'user', name: caller.name || caller.email }
}

/** Whom a new asset or collection records as its creator: the user of a session; nobody for a key. */
export function creatorOf(caller: Caller): string | null {
  return caller.via === 'session' ? caller.userId : null
}
