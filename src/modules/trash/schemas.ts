import { Type } from 'typebox'
import { ListSchema, PaginationQuery } from '../../platform/http/pagination.js'
import { ref } from '../../platform/http/schemas.js'
import { ActorSchema, ASSET_EXAMPLE, AssetSchema } from '../assets/schemas.js'

export const TrashedAssetSchema = Type.Object(
  {
    ...AssetSchema.properties,
    deleted_at: Type.String({ format: 'date-time' }),
    purge_at: Type.String({ format: 'date-time', description: 'When the purge removes it for good, unless it is restored before (`TRASH_RETENTION_DAYS` after `deleted_at`).' }),
    deleted_by: Type.Object(ActorSchema.properties, { additionalProperties: false, description: 'Who deleted it.' }),
  },
  {
    $id: 'TrashedAsset',
    additionalProperties: false,
    description: 'An asset in the trash: its record as it was when deleted, and when, by whom and until when.',
  },
)

const trashPage = ListSchema(ref(TrashedAssetSchema), 'Trashed assets, last deleted first.')

/** A page of the trash: the asset list's envelope. */
export const TrashListSchema = Type.Object(
  { ...trashPage.properties, total_exact: Type.Boolean({ description: 'Always true: the trash is counted exactly.' }) },
  { description: 'Trashed assets, last deleted first.' },
)

export const TrashQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false })

export const TrashParams = Type.Object({ id: Type.String({ format: 'uuid' }) })

export const TRASHED_EXAMPLE = {
  ...ASSET_EXAMPLE,
  deleted_at: '2026-11-25T09:30:00.000Z',
  purge_at: '2026-12-25T09:30:00.000Z',
  deleted_by: { kind: 'user' as const, name: 'Ada Lovelace' },
}
