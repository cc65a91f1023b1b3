import { Type } from 'typebox'
import { ListSchema, PaginationQuery } from '../../platform/http/pagination.js'
import { ref } from '../../platform/http/schemas.js'
import { PROVENANCE_SOURCES } from '../../platform/db/schema.js'
import { COLOR_NAMES, type ColorName } from '../../platform/images/color-names.js'
import { CursorProperty, NextCursorProperty } from './cursor.js'
import { SortProperty } from './sort.js'

const Name = (description: string) => Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description })
const Url = (description: string) => Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://', description })
const TagNames = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }), {
    maxItems: 100,
    description: `${description} Tags are created on first use and matched case-insensitively.`,
  })

/** An asset's id in the system it came from. */
const ExternalId = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description:
    'The asset\u2019s id in the system it came from, such as `figma:KEY:1-23` or `path:brand/logo.svg`: unique among the organization\u2019s live assets, so a re-import updates instead of duplicating.',
})

const NearDuplicateSchema = Type.Object(
  {
    asset_id: Type.String({ format: 'uuid' }),
    distance: Type.Integer({ minimum: 0, maximum: 7, description: 'Bits that differ between the two 64-bit perceptual hashes; 0 is the same picture.' }),
  },
  { additionalProperties: false },
)

/** The colour names, as a schema's enum. */
function colorNames(): ColorName[] {
  return COLOR_NAMES.map(({ name }) => name)
}

const PaletteColorName = Type.Enum(colorNames(), { type: 'string', description: 'The nearest of the named colours (GET /api/v1/colors), in CIELAB.' })

const PaletteColorSchema = Type.Object(
  {
    hex: Type.String({ pattern: '^#[0-9a-f]{6}$', description: 'Lowercase `#rrggbb`.' }),
    share: Type.Number({ minimum: 0, maximum: 1, description: 'Its share of the opaque pixels.' }),
    name: PaletteColorName,
  },
  { additionalProperties: false },
)

const Text = Type.Union([Type.Null(), Type.String()])

const EmbeddedMetadataSchema = Type.Object(
  {
    orientation: Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: 8 })], { description: 'EXIF orientation; `width` and `height` are the sides after it.' }),
    captured_at: Type.Union([Type.Null(), Type.String()], { description: 'When the picture was taken, as the file says (ISO 8601; with an offset only when the file gives one).' }),
    camera_make: Text,
    camera_model: Text,
    lens: Text,
    creator: Text,
    copyright: Text,
    credit: Type.Union([Type.Null(), Type.String()], { description: 'The credit line (IPTC Credit).' }),
    title: Text,
    description: Text,
    keywords: Type.Array(Type.String(), { description: 'IPTC and XMP keywords.' }),
    gps: Type.Union(
      [
        Type.Null(),
        Type.Object(
          { latitude: Type.Number(), longitude: Type.Number(), altitude: Type.Union([Type.Null(), Type.Number()]) },
          { additionalProperties: false },
        ),
      ],
      { description: 'Where the picture was taken; null unless the instance sets `EXPOSE_GPS=true`.' },
    ),
  },
  { additionalProperties: false },
)

const ProvenanceSchema = Type.Object(
  {
    source: Type.Enum([...PROVENANCE_SOURCES], {
        type: 'string',
        description:
          'The origin the file declares, in its XMP (IPTC digital source type) or its C2PA manifest’s actions: `ai` (`trainedAlgorithmicMedia`), `ai_composite` (`compositeWithTrainedAlgorithmicMedia`), `capture` (`digitalCapture` and other captures from real life), `edited` (any other type: made or changed by people or non-AI software; or a valid manifest recording edits), `unknown` (none). When the file says several things, the one furthest towards AI wins; an invalid manifest’s claims count only when they say AI.',
    }),
    c2pa: Type.Union(
      [
        Type.Null(),
        Type.Object(
          {
            claim_generator: Type.Union([Type.Null(), Type.String()], { description: 'The tool that made the manifest.' }),
            signed_by: Type.Union([Type.Null(), Type.String()], { description: 'The signing certificate’s subject (organization).' }),
            valid: Type.Boolean({
              description:
                'Whether the manifest’s signature and hashes check out; false too when it cannot be read (then the other two are null). Not a statement of trust: no trust list is configured.',
            }),
          },
          { additionalProperties: false },
        ),
      ],
      { description: 'The file’s C2PA manifest; null when it has none of its own (a manifest stored elsewhere is not fetched).' },
    ),
  },
  { additionalProperties: false },
)

/**
 * Who did something to an asset (pushed it, added a version, deleted it): an API key or a user, by the
 * name it had then. Never a secret, nor a key's prefix, nor a user's id or email.
 */
export const ActorSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('key'), Type.Literal('user')]),
    name: Type.String({ description: 'The API key\u2019s name, or the user\u2019s display name (their email when they gave none), at the time.' }),
  },
  { additionalProperties: false },
)

/** Whether the signed-in user may do something, and if not why (the refusal's own words), for the web app. */
export const PermissionSchema = Type.Object(
  { allowed: Type.Boolean(), reason: Type.Union([Type.Null(), Type.String()], { description: 'Why not, in the words of the refusal; null when allowed.' }) },
  { additionalProperties: false },
)

export const AssetSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    asset_type: Type.Union([Type.Null(), Type.String()]),
    client: Type.Union([Type.Null(), Type.String()]),
    product: Type.Union([Type.Null(), Type.String()]),
    tags: Type.Array(Type.String()),
    source_url: Type.Union([Type.Null(), Type.String()]),
    created_by_ai: Type.Boolean(),
    mime_type: Type.String({ description: 'Read from the bytes, never from a header or file name.' }),
    width: Type.Integer(),
    height: Type.Integer(),
    byte_size: Type.Integer(),
    sha256: Type.String({ description: 'SHA-256 of the image bytes; two pushes of the same bytes are one asset.' }),
    thumbnail_url: Type.String({
      description:
        'Signed URL of a WebP thumbnail (longest side 512 px), valid about 24 hours: fetch it again rather than storing it. Valid from the push\u2019s answer on: a thumbnail not made yet is made when first asked for. 404 `thumbnail_unavailable` when `thumbnail_status` is `failed`.',
    }),
    thumbnail_expires_at: Type.String({ format: 'date-time' }),
    thumbnail_status: Type.Union([Type.Literal('available'), Type.Literal('failed')], {
      description:
        '`available`: `thumbnail_url` serves the thumbnail (made after the push answered, in the background or when first asked for). `failed`: the image passed the push\u2019s checks (its header, and its structure whole to its end) but its pixel data could not be decoded (corrupt); the asset and its original stay as pushed.',
    }),
    thumbnail_failure: Type.Union([Type.Null(), Type.String()], { description: 'Why the thumbnail failed; null unless `thumbnail_status` is `failed`.' }),
    original_url: Type.String({ description: 'Signed URL of the original image, valid as long as thumbnail_url.' }),
    renditions: Type.Object({ thumbnail: Type.String(), original: Type.String() }, {
      additionalProperties: Type.String(),
      description:
        'A signed URL for every preset (GET /api/v1/presets), by name, valid as long as thumbnail_url: `thumbnail` and `original` (the same links as `thumbnail_url` and `original_url`), then the organization\u2019s own presets, each the current version\u2019s rendition in the preset\u2019s size and format (made when first fetched). In the trash, the built-ins only.',
    }),
    version: Type.Integer({
      minimum: 1,
      description: '1 at the push, one more for each new file (POST /api/v1/assets/{id}/versions, or a push with a known `external_id`). The file facts above are the current version\u2019s.',
    }),
    external_id: Type.Union([Type.Null(), Type.String()], {
      description: 'The asset\u2019s id in the system it came from (`figma:KEY:1-23`, `path:brand/logo.svg`); unique among the organization\u2019s live assets.',
    }),
    collections: Type.Array(Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }, { additionalProperties: false }), {
      description: 'Manual collections holding the asset.',
    }),
    near_duplicates: Type.Union([Type.Null(), Type.Array(NearDuplicateSchema, { maxItems: 5 })], {
      description:
        'Up to 5 live assets whose picture is nearly the same (perceptual hash within `NEAR_DUPLICATE_DISTANCE`, 6 by default), closest first. Null while the current file’s hash is being made (after the push answers); empty when there are none, the image cannot be decoded, or it is too plain to compare (one flat colour: fewer than 8 of the hash’s 64 comparisons of neighbours differ).',
    }),
    colors: Type.Union([Type.Null(), Type.Array(PaletteColorSchema, { maxItems: 6 })], {
      description: 'Up to 6 dominant colours of the current file, most used first; transparent pixels do not count. Null until made (after the push answers); empty when the image has no opaque pixel or cannot be decoded.',
    }),
    metadata: Type.Union([Type.Null(), EmbeddedMetadataSchema], {
      description: 'What the current file’s embedded EXIF, IPTC and XMP say. Null until read (after the push answers).',
    }),
    provenance: Type.Union([Type.Null(), ProvenanceSchema], {
      description: 'What the current file says of who or what made it, whatever `created_by_ai` says. Null until read (after the push answers).',
    }),
    created_by: Type.Union([Type.Null(), ActorSchema], {
      description:
        'Who pushed it: an API key (`kind: "key"`, the key\u2019s name) or a signed-in user (`kind: "user"`, their display name), as it was at the push; a Figma import\u2019s assets name whoever started the import. Null for assets pushed with a key before this was recorded.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Asset', additionalProperties: false },
)

export const PushBody = Type.Object(
  {
    image_url: Type.Optional(Url('Fetched by the service (public addresses only). Give this or image_base64.')),
    image_base64: Type.Optional(
      // No minLength: checking it counts every character of a 35 MB string; an empty value fails decoding instead.
      Type.String({ description: 'The image bytes in base64, optionally as a data: URL; at most 25 MiB decoded. Give this or image_url.' }),
    ),
    title: Type.Optional(Type.String({ maxLength: 500, description: 'Absent or blank on a new asset: the file\u2019s embedded title (XMP or IPTC), if any.' })),
    asset_type: Type.Optional(Name('One of the organization\u2019s asset types (GET /api/v1/asset-types).')),
    client: Type.Optional(Name('Client name; free text.')),
    product: Type.Optional(Name('Product name; free text.')),
    tag_names: Type.Optional(TagNames('Tag names. Absent on a new asset: the file\u2019s embedded IPTC and XMP keywords (each cut to 100 characters, at most 100); `[]` means no tags.')),
    collection_name: Type.Optional(Name('An existing manual collection to add the asset to; never created.')),
    external_id: Type.Optional(ExternalId),
    source_url: Type.Optional(Url('Where the asset comes from.')),
    created_by_ai: Type.Optional(Type.Boolean({ description: 'Send false for human-made assets; true when not sent (a push with a known `external_id` then leaves it as it is).' })),
  },
  { additionalProperties: false },
)

/**
 * The push as `multipart/form-data`: the image's bytes in a `file` part, every other field of the JSON
 * push (but `image_base64`) as a text field. The fields collected from a form are validated by this
 * schema, so they obey the JSON body's rules and are refused with the same field problems.
 */
export const PushForm = Type.Object(
  {
    file: Type.Optional(
      Type.String({
        format: 'binary',
        contentMediaType: 'application/octet-stream',
        description:
          'The image file, at most 25 MiB (`curl -F file=@logo.png`). Its format is read from the bytes; the part\u2019s file name and Content-Type are ignored. Give this or image_url.',
      }),
    ),
    image_url: Type.Optional(Url('Fetched by the service (public addresses only). Give this or a `file` part.')),
    title: PushBody.properties.title,
    asset_type: PushBody.properties.asset_type,
    client: PushBody.properties.client,
    product: PushBody.properties.product,
    tag_names: Type.Optional(
      TagNames('Tag names: repeat the field once per name, or send one field holding a JSON array (`["brand","logo"]`). Absent on a new asset: the file\u2019s embedded keywords.'),
    ),
    collection_name: PushBody.properties.collection_name,
    source_url: PushBody.properties.source_url,
    external_id: PushBody.properties.external_id,
    created_by_ai: Type.Optional(Type.Boolean({ description: '`true` or `false`; send false for human-made assets; true when not sent.' })),
  },
  { additionalProperties: false },
)

export const PushResponse = Type.Object(
  {
    asset_id: Type.String({ format: 'uuid' }),
    duplicate: Type.Boolean({ description: 'True when these exact bytes were already in the library: nothing was changed.' }),
    version: Type.Optional(
      Type.Integer({ minimum: 1, description: 'With an `external_id` naming an asset of the organization: that asset\u2019s version now (the new one, or its current one for a duplicate).' }),
    ),
  },
  { additionalProperties: false },
)

export const VersionBody = Type.Object(
  {
    image_url: PushBody.properties.image_url,
    image_base64: PushBody.properties.image_base64,
  },
  { additionalProperties: false },
)

/** A new version as `multipart/form-data`: the file in a `file` part, or an `image_url` field. */
export const VersionForm = Type.Object({ file: PushForm.properties.file, image_url: PushForm.properties.image_url }, { additionalProperties: false })

export const VersionResponse = Type.Object(
  {
    asset_id: Type.String({ format: 'uuid' }),
    version: Type.Integer({ minimum: 1, description: 'The asset\u2019s version now: the new one, or the current one for a duplicate.' }),
    duplicate: Type.Boolean({ description: 'True when these bytes were already the asset\u2019s current file: nothing changed.' }),
  },
  { additionalProperties: false },
)

export const VersionRestoreResponse = Type.Object(
  {
    asset_id: Type.String({ format: 'uuid' }),
    version: Type.Integer({ minimum: 1, description: 'The asset\u2019s version now: the copy just made (the previous newest plus one), or the current one when that version was already current.' }),
    duplicate: Type.Boolean({ description: 'True when the version restored was already the current one (same bytes): nothing changed.' }),
  },
  { additionalProperties: false },
)

const VersionSchema = Type.Object(
  {
    version: Type.Integer({ minimum: 1 }),
    sha256: Type.String(),
    byte_size: Type.Integer(),
    width: Type.Integer(),
    height: Type.Integer(),
    mime_type: Type.String(),
    created_at: Type.String({ format: 'date-time', description: 'When this version was added.' }),
    created_by: Type.Union([Type.Null(), ActorSchema], {
      description: 'Who added it: an API key or a user, by the name it had then; null for versions from before versions were recorded (pushed with a key).',
    }),
    original_url: Type.String({ description: 'Signed URL of this version\u2019s original, valid about 24 hours.' }),
    thumbnail_url: Type.String({ description: 'Signed URL of this version\u2019s thumbnail, valid about 24 hours.' }),
  },
  { additionalProperties: false },
)

export const VersionListSchema = Type.Object({ data: Type.Array(VersionSchema, { description: 'Every version, newest first.' }) }, { additionalProperties: false })

export const VERSION_LIST_EXAMPLE = {
  data: [2, 1].map((version) => ({
    version,
    sha256: version === 2 ? '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae' : '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    byte_size: 1843200,
    width: 2400,
    height: 1200,
    mime_type: 'image/png',
    created_at: version === 2 ? '2026-11-23T10:00:00.000Z' : '2026-11-21T19:00:00.000Z',
    created_by: version === 2 ? { kind: 'user' as const, name: 'Ada Lovelace' } : { kind: 'key' as const, name: 'figma-plugin' },
    original_url: `https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/${version}/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7`,
    thumbnail_url: `https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/${version}/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592`,
  })),
}

export const VersionParams = Type.Object({ id: Type.String({ format: 'uuid' }), version: Type.Integer({ minimum: 1 }) })

/** How many hashes one check may ask about: a CLI checks a folder in batches of this many. */
export const MAX_CHECKED_HASHES = 1000

const SHA256_EXAMPLE = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'
const MISSING_SHA256_EXAMPLE = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'

export const CheckBody = Type.Object(
  {
    sha256: Type.Array(Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of an image file\u2019s bytes, 64 lowercase hex digits.' }), {
      minItems: 1,
      maxItems: MAX_CHECKED_HASHES,
      description: 'The hashes to look up; one asked twice is answered once.',
    }),
  },
  { additionalProperties: false, examples: [{ sha256: [SHA256_EXAMPLE, MISSING_SHA256_EXAMPLE] }] },
)

export const CheckResponse = Type.Object(
  {
    found: Type.Array(Type.Object({ sha256: Type.String(), asset_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }), {
      description: 'The hashes that are already an asset of your organization, in the order asked.',
    }),
    missing: Type.Array(Type.String(), { description: 'The hashes your organization has no asset of (another organization\u2019s are missing too), in the order asked.' }),
  },
  { additionalProperties: false },
)

export const CHECK_EXAMPLE = {
  found: [{ sha256: SHA256_EXAMPLE, asset_id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55' }],
  missing: [MISSING_SHA256_EXAMPLE],
}

const nullable = <T extends ReturnType<typeof Name>>(schema: T) => Type.Union([Type.Null(), schema])

export const PatchBody = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 500 })),
    asset_type: Type.Optional(nullable(Name('One of the asset types; null clears it.'))),
    client: Type.Optional(nullable(Name('null clears it.'))),
    product: Type.Optional(nullable(Name('null clears it.'))),
    source_url: Type.Optional(Type.Union([Type.Null(), Url('null clears it.')])),
    created_by_ai: Type.Optional(Type.Boolean()),
    tag_names: Type.Optional(TagNames('Replaces all tags; [] removes them.')),
    external_id: Type.Optional(Type.Union([Type.Null(), ExternalId], { description: 'Sets the asset\u2019s id in the system it came from (409 `external_id_taken` when another live asset has it); null clears it.' })),
  },
  { additionalProperties: false, minProperties: 1 },
)

/** How many assets one bulk edit may name. */
export const MAX_BULK_EDIT_IDS = 500

const BulkTags = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }), { minItems: 1, maxItems: 100, description: `${description} Matched case-insensitively, trimmed.` })

export const BulkEditBody = Type.Object(
  {
    ids: Type.Array(Type.String({ format: 'uuid' }), {
      minItems: 1,
      maxItems: MAX_BULK_EDIT_IDS,
      description: 'The assets to edit, 1 to 500; an id given twice is edited and answered once.',
    }),
    set: Type.Optional(
      Type.Object(
        {
          asset_type: Type.Optional(nullable(Name('One of the asset types; null clears it.'))),
          client: Type.Optional(nullable(Name('null clears it.'))),
          product: Type.Optional(nullable(Name('null clears it.'))),
          created_by_ai: Type.Optional(Type.Boolean({ description: 'true: made with AI; false: made by a person.' })),
        },
        { additionalProperties: false, minProperties: 1, description: 'Fields given the same value on every asset.' },
      ),
    ),
    add_tags: Type.Optional(BulkTags('Tags each asset gains (created on first use); one it has already is left as it is.')),
    remove_tags: Type.Optional(BulkTags('Tags each asset loses; one it lacks is no change.')),
  },
  {
    additionalProperties: false,
    examples: [{ ids: ['0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55', '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a56'], set: { client: 'Acme' }, add_tags: ['campaign-2026'], remove_tags: ['draft'] }],
  },
)

export const BULK_EDIT_RESULTS = ['updated', 'unchanged', 'not_found', 'forbidden'] as const

export const BulkEditResponse = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          id: Type.String({ format: 'uuid' }),
          result: Type.Enum([...BULK_EDIT_RESULTS], {
              type: 'string',
              description:
                '`updated`: changed, with its `asset.updated`; `unchanged`: it already had every value (no event); `not_found`: no live asset of your organization has this id (another organization\u2019s, or in the trash); `forbidden`: you may not edit it.',
          }),
          reason: Type.Optional(Type.String({ description: 'Why it was skipped, in plain words (not_found, forbidden).' })),
        },
        { additionalProperties: false },
      ),
      { description: 'One per distinct id, in the order the request named them.' },
    ),
  },
  { additionalProperties: false },
)

export const BULK_EDIT_EXAMPLE = {
  results: [
    { id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55', result: 'updated' as const },
    { id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a56', result: 'not_found' as const, reason: 'No asset of your organization has this id: it may be in the trash.' },
  ],
}

export const FilterProperties = {
  asset_type: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Exact asset type, case-insensitive.' })),
  client: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Exact client, case-insensitive.' })),
  product: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Exact product, case-insensitive.' })),
  tag: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Assets carrying this tag, case-insensitive.' })),
  tag_prefix: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Assets carrying a tag that starts with this text, case-insensitive (`%` and `_` are plain characters).' }),
  ),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Full-text search over title, tags, type, client and product (web-search syntax: "quoted", or, -not).' })),
  color: Type.Optional(
    Type.Enum(colorNames(), {
      type: 'string',
      description: 'Assets whose palette has a colour of this name (see `GET /api/v1/colors`); assets not yet analysed match no colour.',
    }),
  ),
  provenance: Type.Optional(
    Type.Enum([...PROVENANCE_SOURCES], { type: 'string', description: 'Assets whose file declares this origin (`provenance.source`); assets not yet read match none.' }),
  ),
}

export const ListQuery = Type.Object(
  {
    ...FilterProperties,
    // Not a filter a smart collection stores: it names one asset.
    external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The asset with exactly this `external_id` (case-sensitive), if any.' })),
    sort: Type.Optional(SortProperty),
    ...PaginationQuery,
    cursor: Type.Optional(CursorProperty),
  },
  { additionalProperties: false },
)

export const AssetParams = Type.Object({ id: Type.String({ format: 'uuid' }) })

export const ASSET_EXAMPLE = {
  id: '0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55',
  title: 'Summer campaign hero',
  asset_type: 'Banner',
  client: 'Initech',
  product: 'Stapler',
  tags: ['summer', 'hero'],
  source_url: 'https://www.figma.com/file/abc123',
  created_by_ai: false,
  mime_type: 'image/png',
  width: 2400,
  height: 1200,
  byte_size: 1843200,
  sha256: SHA256_EXAMPLE,
  thumbnail_url: 'https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592',
  thumbnail_expires_at: '2026-11-22T20:00:00.000Z',
  thumbnail_status: 'available' as const,
  thumbnail_failure: null,
  original_url: 'https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7',
  renditions: {
    thumbnail: 'https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/thumbnail?expires=1795363200&sig=5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592',
    original: 'https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/original?expires=1795363200&sig=7d793037a0760186574b0282f2f435e77d793037a0760186574b0282f2f435e7',
    'web-1200': 'https://assets.example.com/files/assets/0193a5b2-7c1e-7d3a-9f10-4b2d8e6c1a55/versions/1/renditions/w1200-contain-q80.webp?expires=1795363200&sig=0b9c2625dc21ef05f6ad4ddf47c5f203837aa32c0b9c2625dc21ef05f6ad4ddf',
  },
  version: 1,
  external_id: 'figma:FILEKEY:1-23',
  near_duplicates: [{ asset_id: '0193a5b2-8d04-7a61-b3c2-2f9e7d1c4b08', distance: 3 }],
  colors: [
    { hex: '#1e5aa8', share: 0.52, name: 'blue' as const },
    { hex: '#f4f1ea', share: 0.31, name: 'white' as const },
    { hex: '#e2a32b', share: 0.17, name: 'orange' as const },
  ],
  metadata: {
    orientation: 1,
    captured_at: '2026-06-14T09:31:05',
    camera_make: 'FUJIFILM',
    camera_model: 'X-T5',
    lens: 'XF23mmF1.4 R LM WR',
    creator: 'Dana Reyes',
    copyright: '\u00a9 2026 Initech',
    credit: 'Dana Reyes / Initech',
    title: 'Summer campaign hero',
    description: 'Stapler on a beach towel',
    keywords: ['summer', 'beach'],
    gps: null,
  },
  provenance: { source: 'capture' as const, c2pa: null },
  created_by: { kind: 'key' as const, name: 'figma-plugin' },
  collections: [{ id: '0193a5b2-6b00-7000-8000-000000000002', name: 'Q3 launch' }],
  created_at: '2026-11-21T19:00:00.000Z',
  updated_at: '2026-11-21T19:05:00.000Z',
}

/**
 * A page of assets. A full-text filter (`q`) counts its matches up to 1,000: past that, `total` is the
 * database planner's estimate and `total_exact` is false; every other list's total is exact.
 * `next_cursor` pages on by keyset whichever way the page was asked for.
 */
export function AssetListSchema(description: string) {
  const list = ListSchema(ref(AssetSchema), description)
  return Type.Object(
    {
      ...list.properties,
      total_exact: Type.Boolean({
        description: 'False when `total` is an estimate: a full-text filter (`q`) matching more than 1,000 assets (`LIST_EXACT_TOTAL_UP_TO`) is not counted to the end. Say "1,000+" rather than the estimate, which is rough.',
      }),
      next_cursor: NextCursorProperty,
    },
    { description },
  )
}
