import type { EventName } from '../events/names.js'
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'
import type { ColorName } from '../images/color-names.js'

type CreatedAt = ColumnType<Date, Date | string | undefined, never>
type Timestamp = ColumnType<Date, Date | string, Date | string>
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>

export type Role = 'owner' | 'admin' | 'member'
export type Scope = 'assets:read' | 'assets:write'

export interface OrganizationsTable {
  id: string
  name: string
  slug: string
  plan: string
  ai_enabled: Generated<boolean>
  /** Kept by triggers on `assets`: never written by the application. */
  asset_count: ColumnType<number, never, never>
  byte_count: ColumnType<string, never, never>
  /** Moved by triggers whenever anything a list of assets shows may have changed (migration 0008). */
  library_version: ColumnType<string, never, never>
  /** The bytes of every version of every asset, live or in the trash (migration 0018): what the plan's byte limit counts. Kept by triggers. */
  stored_byte_count: ColumnType<string, never, never>
  /** The assets in the trash (migration 0018), which the plan's asset limit counts with the live ones. Kept by triggers. */
  trashed_count: ColumnType<number, never, never>
  created_at: CreatedAt
  updated_at: Timestamp
}

export interface UsersTable {
  id: string
  email: string
  name: string
  password_hash: string
  created_at: CreatedAt
}

export interface MembershipsTable {
  organization_id: string
  user_id: string
  role: Role
  created_at: CreatedAt
}

export interface InvitationsTable {
  id: string
  organization_id: string
  email: string
  role: Role
  token_hash: string
  invited_by: string | null
  expires_at: Timestamp
  accepted_at: NullableTimestamp
  revoked_at: NullableTimestamp
  created_at: CreatedAt
}

export interface SessionsTable {
  id: string
  token_hash: string
  user_id: string
  expires_at: Timestamp
  created_at: CreatedAt
}

export interface PasswordResetsTable {
  user_id: string
  token_hash: string
  expires_at: Timestamp
}

export type MemberAuditAction = 'removed' | 'role_changed' | 'ownership_transferred'

/** Who removed a member, changed a role or handed over ownership (migration 0011); emails as they were then. */
export interface MemberAuditTable {
  id: string
  organization_id: string
  action: MemberAuditAction
  actor_id: string | null
  actor_email: string
  member_id: string | null
  member_email: string
  /** The member's role before; null for none. */
  from_role: Role | null
  /** The member's role after; null once removed. */
  to_role: Role | null
  created_at: CreatedAt
}

export interface ApiKeysTable {
  id: string
  organization_id: string
  name: string
  prefix: string
  secret_hash: string
  scope: Scope
  created_by: string | null
  created_at: CreatedAt
  expires_at: NullableTimestamp
  last_used_at: NullableTimestamp
  revoked_at: NullableTimestamp
  /** The key's own limit per window in the `expensive` bucket; null: the server's. */
  limit_expensive: ColumnType<number | null, number | null | undefined, number | null>
  /** The key's own limit per window in the `cheap` bucket; null: the server's. */
  limit_cheap: ColumnType<number | null, number | null | undefined, number | null>
}

export interface OutboxEventsTable {
  id: string
  organization_id: string
  event: string
  payload: ColumnType<unknown, string, never>
  created_at: CreatedAt
  next_attempt_at: NullableTimestamp
  attempts: Generated<number>
  locked_by: string | null
  locked_until: NullableTimestamp
  last_error: string | null
}

export interface WebhookSubscriptionsTable {
  id: string
  organization_id: string
  url: string
  description: Generated<string>
  events: EventName[]
  enabled: Generated<boolean>
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: NullableTimestamp
  created_by: string | null
  created_at: CreatedAt
  updated_at: Timestamp
  /** Since when every attempt has failed; null once one succeeds (migration 0010). */
  failing_since: NullableTimestamp
  /** Set when the service disabled the subscription itself, cleared when it is enabled again. */
  disabled_at: NullableTimestamp
  disabled_reason: string | null
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed'
export type AttemptTrigger = 'automatic' | 'replay' | 'ping'

export interface WebhookDeliveriesTable {
  id: string
  organization_id: string
  subscription_id: string
  event_id: string | null
  event: EventName
  body: string
  status: Generated<DeliveryStatus>
  series_trigger: Generated<AttemptTrigger>
  attempt_count: Generated<number>
  last_status_code: number | null
  created_at: CreatedAt
  updated_at: Timestamp
  next_attempt_at: NullableTimestamp
  attempts: Generated<number>
  locked_by: string | null
  locked_until: NullableTimestamp
  last_error: string | null
  /** When the attempt under way started; null when none is (migration 0010). */
  attempt_started_at: NullableTimestamp
}

export interface WebhookAttemptsTable {
  delivery_id: string
  number: number
  attempted_at: ColumnType<Date, Date | string, never>
  trigger: AttemptTrigger
  status_code: number
  error: string | null
  duration_ms: number
  response_body: string
}

export interface InstanceStateTable {
  key: string
  value: ColumnType<unknown, string, string>
  updated_at: Timestamp
}

export interface CatalogTable {
  id: string
  organization_id: string
  name: string
  created_at: CreatedAt
}

export interface TagsTable extends CatalogTable {
  /** How many assets carry the tag: kept by triggers on `assets`, never written by the application. */
  asset_count: ColumnType<number, never, never>
}

/**
 * How many assets carry each spelling of an asset type, client or product (migration 0009), each
 * declared origin and each colour name (0022): kept by triggers, never written by the application.
 */
export interface AssetNameCountsTable {
  organization_id: ColumnType<string, never, never>
  field: ColumnType<'asset_type' | 'client' | 'product' | 'provenance' | 'color', never, never>
  /** `lower(name)`, which filters match. */
  key: ColumnType<string, never, never>
  name: ColumnType<string, never, never>
  asset_count: ColumnType<number, never, never>
}

export interface AssetsTable {
  id: string
  organization_id: string
  title: Generated<string>
  asset_type: string | null
  client: string | null
  product: string | null
  source_url: string | null
  created_by_ai: Generated<boolean>
  mime_type: string
  width: number
  height: number
  byte_size: ColumnType<string, number, number>
  sha256: string
  blob_key: string
  thumbnail_key: string
  /** Why the image could not be decoded into its thumbnail (migration 0015); null when nothing failed. */
  thumbnail_failure: ColumnType<string | null, string | null | undefined, string | null>
  /** The tag names, space-separated, for the generated full-text column `search`. */
  tag_text: Generated<string>
  /** The tag names as the catalogue spells them, sorted case-insensitively. */
  tags: Generated<string[]>
  /** The same names lower-cased, which `tag=` matches (GIN-indexed). */
  tag_keys: Generated<string[]>
  search: ColumnType<string, never, never>
  /** The user whose session pushed it; null for an API key's, and for rows older than migration 0012. */
  created_by: ColumnType<string | null, string | null | undefined, never>
  /** Who pushed it, an API key or a user, by the name it had then (migration 0025); null when that is unknown (older rows). */
  created_by_kind: ColumnType<ActorKind | null, ActorKind | null | undefined, never>
  created_by_name: ColumnType<string | null, string | null | undefined, never>
  created_at: CreatedAt
  updated_at: Timestamp
  /** 1 at the push, one more for each new file (migration 0018); its files are the row of `asset_versions` with this number. */
  version: Generated<number>
  /** The asset's id in the system it came from (`figma:KEY:1-23`, `path:brand/logo.svg`): unique per organization among live assets. */
  external_id: ColumnType<string | null, string | null | undefined, string | null>
  /** The text the file carries for people: an SVG's `<title>` and `<desc>` (migration 0019); null for raster images. Searched as full text. */
  file_text: ColumnType<string | null, string | null | undefined, string | null>
  /** The current file's 64-bit perceptual hash (migration 0021); null until made, or when its image cannot be decoded. */
  perceptual_hash: ColumnType<string | null, never, string | null>
  /** The algorithm of `perceptual_hash` (`dhash`), set once the hash is made or found impossible; null while it is pending. */
  perceptual_hash_algorithm: ColumnType<string | null, never, string | null>
  /** The current file's palette (migration 0021), closest to most used first; null until made. */
  colors: ColumnType<PaletteColor[] | null, never, string | null>
  /** The names in `colors`, which `color=` matches. */
  color_names: ColumnType<string[], never, string[]>
  /** What the current file's EXIF, IPTC and XMP say (migration 0021); null until read. */
  metadata: ColumnType<EmbeddedMetadata | null, never, string | null>
  /** What the current file says of who or what made it (migration 0021); null until read. */
  provenance: ColumnType<Provenance | null, never, string | null>
  /** `provenance.source`, which `provenance=` matches. */
  provenance_source: ColumnType<ProvenanceSource | null, never, ProvenanceSource | null>
}

/** A colour of a palette: `share` of the opaque pixels (0 to 1), and its name among COLOR_NAMES. */
export interface PaletteColor {
  hex: string
  share: number
  name: ColorName
}

/**
 * What a file's embedded EXIF, IPTC and XMP say, as the record shows it. Absent facts are null (an empty
 * list for keywords); `gps` is null unless the instance exposes it (EXPOSE_GPS), and is not stored otherwise.
 */
export interface EmbeddedMetadata {
  orientation: number | null
  captured_at: string | null
  camera_make: string | null
  camera_model: string | null
  lens: string | null
  creator: string | null
  copyright: string | null
  credit: string | null
  title: string | null
  description: string | null
  keywords: string[]
  gps: { latitude: number; longitude: number; altitude: number | null } | null
}

export const PROVENANCE_SOURCES = ['ai', 'ai_composite', 'capture', 'edited', 'unknown'] as const
export type ProvenanceSource = (typeof PROVENANCE_SOURCES)[number]

/** Who or what made the file, as the file says: its declared digital source, and its C2PA manifest, if any. */
export interface Provenance {
  source: ProvenanceSource
  c2pa: { claim_generator: string | null; signed_by: string | null; valid: boolean } | null
}

/** Who did something to an asset: an API key or a signed-in user, by the name it had then. */
export type ActorKind = 'key' | 'user'

/** Every version of every asset, the current one included, live or trashed (migration 0018). No foreign key to `assets`: a trashed asset keeps its versions. */
export interface AssetVersionsTable {
  asset_id: string
  version: number
  organization_id: string
  sha256: string
  blob_key: string
  thumbnail_key: string
  mime_type: string
  width: number
  height: number
  byte_size: ColumnType<string, number, never>
  created_at: CreatedAt
  /** Null for versions older than migration 0018 whose pusher is unknown. */
  created_by_kind: ActorKind | null
  created_by_name: string | null
  /** The file's own text, as `assets.file_text` (migration 0019). */
  file_text: ColumnType<string | null, string | null | undefined, never>
}

/** An organization's named rendition (migration 0019): the built-in `thumbnail` and `original` are not rows. */
export interface RenditionPresetsTable {
  organization_id: string
  name: string
  width: number | null
  height: number | null
  fit: Generated<'contain' | 'cover' | 'inside'>
  format: 'png' | 'jpeg' | 'webp' | 'avif'
  quality: number | null
  /** `rrggbb` or `rrggbbaa`, lower case. */
  background: string | null
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

/** A rendition file in the blob store's `renditions/` prefix (migration 0019), by the SHA-256 of the file it was made from. */
export interface RenditionsTable {
  key: string
  sha256: string
  byte_size: ColumnType<string, number, never>
  created_at: CreatedAt
  last_used_at: ColumnType<Date, Date | string | undefined, Date | string>
}

/** An asset in the trash (migration 0018): its row as it was, until restored or purged at `purge_at`. */
export interface TrashedAssetsTable {
  id: string
  organization_id: string
  sha256: string
  external_id: string | null
  /** The `assets` row as it was (to_jsonb), put back as it was on restore. */
  asset: ColumnType<Record<string, unknown>, string, never>
  /** Its manual collections then; those that still exist get it back on restore. */
  collection_ids: ColumnType<string[], string[] | undefined, never>
  deleted_at: CreatedAt
  purge_at: Timestamp
  deleted_by_kind: ActorKind
  deleted_by_name: string
}

/** An asset's vector with what made it, and the claim columns of platform/background/claims.ts: both vector tables' rows. */
interface AssetVectorRow {
  asset_id: string
  organization_id: string
  model: string | null
  dimensions: number | null
  /** pgvector's `vector`; present only where pgvector is. Written as a binary parameter, never read into JS. */
  embedding: ColumnType<string | null, Buffer | null, Buffer | null>
  embedded_at: NullableTimestamp
  next_attempt_at: NullableTimestamp
  attempts: Generated<number>
  locked_by: string | null
  locked_until: NullableTimestamp
  last_error: string | null
}

/** The vector of an asset's text (migration 0004), and the text it is made from. */
export interface AssetEmbeddingsTable extends AssetVectorRow {
  source_text: string
  text_hash: string
  embedded_hash: string | null
}

/** The CLIP vector of an asset's current file, and the file it was made from (migration 0026). */
export interface AssetImageEmbeddingsTable extends AssetVectorRow {
  embedded_sha256: string | null
}

/** An analysis still to make of an asset's current file (migration 0021): the claim columns of platform/background/claims.ts. */
export type AnalysisJobsTable = ThumbnailJobsTable

/** One 8-bit band of an asset's perceptual hash (migration 0021), and the whole hash, for the near-duplicate lookup. */
export interface PerceptualHashBandsTable {
  organization_id: string
  band: number
  value: number
  asset_id: string
  hash: ColumnType<string, string | bigint, never>
}

/** Two live assets whose perceptual hashes are near (migration 0021); kept both ways. */
export interface NearDuplicatePairsTable {
  asset_id: string
  other_id: string
  organization_id: string
  distance: number
}

/** A thumbnail still to make (migration 0015); the claim columns of platform/background/claims.ts. */
export interface ThumbnailJobsTable {
  asset_id: string
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>
  attempts: Generated<number>
  locked_by: string | null
  locked_until: NullableTimestamp
  last_error: string | null
}

export interface CollectionsTable {
  id: string
  organization_id: string
  name: string
  description: Generated<string>
  kind: 'manual' | 'smart'
  query: ColumnType<unknown, string | null, string | null>
  share_token_hash: ColumnType<string | null, string | null | undefined, string | null>
  /** The live link's token sealed under APP_SECRET (migration 0025), so owners and admins see it again; null for links made before it. */
  share_token_sealed: ColumnType<string | null, string | null | undefined, string | null>
  shared_at: NullableTimestamp
  /** The user whose session created it; null for an API key's, and for rows older than migration 0012. */
  created_by: ColumnType<string | null, string | null | undefined, never>
  created_at: CreatedAt
  updated_at: Timestamp
}

export interface CollectionAssetsTable {
  collection_id: string
  asset_id: string
  added_at: CreatedAt
}

/** The first answer to an `Idempotency-Key` of an /api/v1 write (migration 0013; see platform/http/idempotency.ts). */
export interface IdempotencyKeysTable {
  organization_id: string
  /** `key:<api key id>` or `user:<user id>` (the web app's session). */
  caller: string
  key: string
  /** SHA-256 of the method, the URL and the body, hex. */
  fingerprint: string
  /** Random, per attempt: only the request holding it may record or release the answer. */
  claim: string
  locked_until: Timestamp
  /** Null while the request runs. */
  status: number | null
  headers: ColumnType<Record<string, string> | null, string | null, string | null>
  body: string | null
  created_at: CreatedAt
}

/** An organization's stored Figma personal access token (migration 0020), sealed under the app secret. */
export interface FigmaConnectionsTable {
  organization_id: string
  token_sealed: string
  figma_user_id: string
  figma_handle: string
  figma_email: string | null
  connected_by_kind: ActorKind
  connected_by_name: string
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export type ImportStatus = 'queued' | 'running' | 'done' | 'failed'
export type ImportSelection = 'frames' | 'components' | 'nodes'
export type ImportFormat = 'png' | 'svg' | 'jpg'
export type ImportNodeOutcome = 'created' | 'updated' | 'unchanged' | 'failed' | 'missing'

/** The metadata an import gives every asset it creates (the push's fields). */
export interface ImportMetadata {
  asset_type?: string
  client?: string
  product?: string
  tag_names?: string[]
  collection_name?: string
  created_by_ai?: boolean
}

/** One import of a Figma file (migration 0020); a queue of the background runner (claims.ts columns). */
export interface ImportsTable {
  id: string
  organization_id: string
  source: 'figma'
  file_key: string
  file_url: string
  /** The `node-id` of the link: the import covers that node's subtree only. */
  root_node_id: string | null
  selection: ImportSelection
  node_ids: ColumnType<string[], string[] | undefined, string[]>
  format: ImportFormat
  scale: number
  metadata: ColumnType<ImportMetadata, string | undefined, string>
  /** The import's own `figma_token`, sealed; null once it has ended, and when the organization's is used. */
  token_sealed: string | null
  status: Generated<ImportStatus>
  error_code: string | null
  error_detail: string | null
  file_name: string | null
  file_version: string | null
  /** 1 for the first run; a rerun adds one. */
  run: Generated<number>
  /** A sync was asked for while it ran: it is queued again when the run ends. */
  rerun_pending: Generated<boolean>
  created_by_kind: ActorKind
  /** The key's or the user's id: a rerun by Figma's webhook pushes as them. */
  created_by_id: string
  created_by_name: string
  created_at: CreatedAt
  /** When the current run was asked for. */
  queued_at: ColumnType<Date, Date | string | undefined, Date | string>
  started_at: NullableTimestamp
  finished_at: NullableTimestamp
  next_attempt_at: NullableTimestamp
  attempts: Generated<number>
  locked_by: string | null
  locked_until: NullableTimestamp
  last_error: string | null
}

/** A node of an import (migration 0020): its outcome in the current run, and what it was when last rendered. */
export interface ImportNodesTable {
  import_id: string
  node_id: string
  name: string
  page_name: string | null
  /** The component set of a variant. */
  component_set_name: string | null
  /** The run that last saw the node in the file. */
  run: number
  /** Null while the current run has not done it. */
  outcome: ImportNodeOutcome | null
  /** A failure's code (`render_failed`…), or the push's problem code. */
  reason: string | null
  detail: string | null
  /** SHA-256 of the node's subtree as Figma's file gave it, when last rendered: unchanged, it is not rendered again. */
  content_hash: string | null
  /** SHA-256 of the rendered file last pushed. */
  rendered_hash: string | null
  asset_id: string | null
}

/** A Figma webhook an organization registered (migration 0020). */
export interface FigmaWebhooksTable {
  id: string
  organization_id: string
  figma_webhook_id: string
  event_type: 'FILE_UPDATE' | 'LIBRARY_PUBLISH'
  context: 'file' | 'project' | 'team'
  context_id: string
  /** SHA-256 hex of the passcode Figma sends back with each event. */
  passcode_hash: string
  created_at: CreatedAt
}

export interface Database {
  organizations: OrganizationsTable
  users: UsersTable
  memberships: MembershipsTable
  invitations: InvitationsTable
  sessions: SessionsTable
  password_resets: PasswordResetsTable
  member_audit: MemberAuditTable
  api_keys: ApiKeysTable
  outbox_events: OutboxEventsTable
  webhook_subscriptions: WebhookSubscriptionsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
  instance_state: InstanceStateTable
  asset_types: CatalogTable
  clients: CatalogTable
  products: CatalogTable
  tags: TagsTable
  assets: AssetsTable
  asset_versions: AssetVersionsTable
  trashed_assets: TrashedAssetsTable
  rendition_presets: RenditionPresetsTable
  renditions: RenditionsTable
  asset_name_counts: AssetNameCountsTable
  asset_embeddings: AssetEmbeddingsTable
  asset_image_embeddings: AssetImageEmbeddingsTable
  thumbnail_jobs: ThumbnailJobsTable
  perceptual_hash_jobs: AnalysisJobsTable
  palette_jobs: AnalysisJobsTable
  metadata_jobs: AnalysisJobsTable
  provenance_jobs: AnalysisJobsTable
  perceptual_hash_bands: PerceptualHashBandsTable
  near_duplicate_pairs: NearDuplicatePairsTable
  collections: CollectionsTable
  collection_assets: CollectionAssetsTable
  idempotency_keys: IdempotencyKeysTable
  figma_connections: FigmaConnectionsTable
  imports: ImportsTable
  import_nodes: ImportNodesTable
  figma_webhooks: FigmaWebhooksTable
}

export type CatalogName = 'asset_types' | 'clients' | 'products' | 'tags'

export type Organization = Selectable<OrganizationsTable>
export type User = Selectable<UsersTable>
export type ApiKey = Selectable<ApiKeysTable>
export type Invitation = Selectable<InvitationsTable>
export type MemberAudit = Selectable<MemberAuditTable>
export type NewApiKey = Insertable<ApiKeysTable>
