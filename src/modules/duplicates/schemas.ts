import { Type } from 'typebox'
import { ListSchema, PaginationQuery } from '../../platform/http/pagination.js'
import { ref } from '../../platform/http/schemas.js'
import { ASSET_EXAMPLE, AssetSchema } from '../assets/schemas.js'

/** The most assets one resolve trashes. */
export const MAX_RESOLVED = 100

const Distance = (description: string) => Type.Integer({ minimum: 0, maximum: 7, description })

export const LookalikeAssetSchema = Type.Object(
  {
    ...AssetSchema.properties,
    distance: Distance('Bits that differ between this asset’s 64-bit perceptual hash and the one asked about; 0 is the same picture. Near-duplicates are those within `NEAR_DUPLICATE_DISTANCE` (6 by default).'),
  },
  { $id: 'LookalikeAsset', additionalProperties: false },
)

export const DuplicateGroupSchema = Type.Object(
  {
    asset: ref(AssetSchema),
    duplicates: Type.Array(
      Type.Object(
        { distance: Distance('Bits that differ between this asset’s perceptual hash and the group’s `asset`’s.'), asset: ref(AssetSchema) },
        { additionalProperties: false },
      ),
      { minItems: 1, description: 'The near-duplicates of `asset` pushed after it (created later), closest first.' },
    ),
  },
  {
    $id: 'DuplicateGroup',
    additionalProperties: false,
    description:
      'A live asset and its near-duplicates pushed after it. An asset leads no group when an older near-duplicate of it is near all its newer ones too (the cluster shows once, in the older asset\u2019s group); every near pair is in some group.',
  },
)

export const DuplicatesQuery = Type.Object(PaginationQuery, { additionalProperties: false })

export const DuplicateGroupList = ListSchema(ref(DuplicateGroupSchema), 'Groups, the one whose `asset` was pushed last first.')

const AssetId = Type.String({ format: 'uuid' })

export const ResolveBody = Type.Object(
  {
    keep: { ...AssetId, description: 'The asset to keep: it gains the others’ tags and manual collections.' },
    trash: Type.Array(AssetId, {
      minItems: 1,
      maxItems: MAX_RESOLVED,
      uniqueItems: true,
      description: `The assets to move to the trash (1 to ${MAX_RESOLVED}, each once, not \`keep\`).`,
    }),
  },
  { additionalProperties: false },
)

export const ResolveResponse = Type.Object(
  {
    kept: ref(AssetSchema),
    trashed: Type.Array(AssetId, { description: 'The assets moved to the trash, as asked.' }),
  },
  { additionalProperties: false },
)

export const LOOKALIKE_EXAMPLE = { ...ASSET_EXAMPLE, distance: 3 }

export const DUPLICATE_GROUPS_EXAMPLE = {
  data: [{ asset: ASSET_EXAMPLE, duplicates: [{ distance: 3, asset: { ...ASSET_EXAMPLE, id: '0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08' } }] }],
  total: 1,
  limit: 50,
  offset: 0,
}

export const RESOLVE_EXAMPLE = { kept: ASSET_EXAMPLE, trashed: ['0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08'] }
