import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { safeEqual, sha256Hex } from '../../platform/crypto.js'
import type { Db } from '../../platform/db/index.js'
import { AppError, problems } from '../../platform/http/errors.js'
import { uuidv7 } from '../../platform/ids.js'
import type { FigmaApi } from '../imports/figma-api.js'
import { parseFigmaUrl } from '../imports/figma-url.js'
import { askFigma } from './figma-errors.js'
import { isReachableFromOutside } from './public-url.js'
import type { CreateFigmaWebhookInput, FigmaWebhookView } from './schemas.js'
import * as store from './store.js'

/** What a Figma webhook event does here: the imports module re-runs the file's imports (wt-engine's ImportService). */
export interface FileSyncs {
  /** Queues every import of the file again, due in `delayMs` (a later call pushes it out again); how many it touched. */
  requestSync(organizationId: string, fileKey: string, delayMs: number): Promise<number>
}

/** The fields of Figma's webhook payloads (`WebhookBasePayload` and its kinds in @figma/rest-api-spec) this reads. */
export interface FigmaEvent {
  event_type: string
  passcode: string
  webhook_id?: string
  file_key?: string
}

/** The events that re-run a file's imports; PING and the others are answered and ignored. */
const SYNCING_EVENTS = new Set(['FILE_UPDATE', 'LIBRARY_PUBLISH'])

/** Compared against when the organization has no webhook (or does not exist), so every refusal costs the same. */
const NO_HASH = sha256Hex('no Figma webhook')

/** Figma's passcodes are at most 100 characters: 32 random bytes in base64url are 43. */
function newPasscode(): string {
  return randomBytes(32).toString('base64url')
}

/**
 * The Figma webhooks of an organization: registered at Figma with the organization's stored token and
 * a passcode of their own (kept here as its SHA-256), and the events Figma sends back to
 * `/hooks/figma/{slug}`, which re-run the imports of the file they name, debounced.
 */
export class FigmaWebhooks {
  constructor(
    private readonly deps: {
      db: Db
      figma: FigmaApi
      /** The organization's stored token (FigmaConnections.token). */
      storedToken: (organizationId: string) => Promise<string | null>
      syncs: FileSyncs
      publicBaseUrl: string
      outboundAllowlist: readonly string[]
      debounceMs: number
      logger: FastifyBaseLogger
    },
  ) {}

  endpoint(slug: string): string {
    return `${this.deps.publicBaseUrl}/hooks/figma/${encodeURIComponent(slug)}`
  }

  async list(organization: { id: string; slug: string }): Promise<FigmaWebhookView[]> {
    return (await store.listWebhooks(this.deps.db, organization.id)).map((row) => this.view(row, organization.slug))
  }

  /**
   * Registers a webhook at Figma; one watching the same thing already is answered as it is. Its row
   * is written before Figma is asked, so an event Figma sends at once finds its passcode; it goes
   * again if Figma refuses.
   */
  async register(organization: { id: string; slug: string }, input: CreateFigmaWebhookInput): Promise<FigmaWebhookView> {
    const { db, figma } = this.deps
    if (!isReachableFromOutside(this.deps.publicBaseUrl, this.deps.outboundAllowlist)) {
      throw problems.unprocessable(
        'public_url_required',
        `Figma must reach this server to send its events, and PUBLIC_BASE_URL (${this.deps.publicBaseUrl}) is not a public address: serve it at one first.`,
      )
    }
    const watch = { event_type: input.event_type, ...watched(input) }
    const token = await this.deps.storedToken(organization.id)
    if (token === null) throw problems.unprocessable('figma_not_connected', 'Store the organization\u2019s Figma token first: webhooks are registered with it.')
    const existing = await store.findWebhookFor(db, organization.id, watch)
    if (existing) return this.view(existing, organization.slug)

    const passcode = newPasscode()
    const pending = await store.insertWebhook(db, { id: uuidv7(), organization_id: organization.id, ...watch, figma_webhook_id: '', passcode_hash: sha256Hex(passcode) })
    if (!pending) return this.register(organization, input)
    try {
      const registered = await askFigma(() =>
        figma.session(token).createWebhook({ ...watch, endpoint: this.endpoint(organization.slug), passcode, description: 'Asset Library: re-runs the imports of the file' }),
      )
      const row = await store.setFigmaWebhookId(db, pending.id, registered.id)
      return this.view(row ?? { ...pending, figma_webhook_id: registered.id }, organization.slug)
    } catch (error) {
      await store.deleteWebhook(db, organization.id, pending.id)
      throw error
    }
  }

  /** Removes one webhook here, and at Figma as far as it answers. */
  async delete(organizationId: string, id: string): Promise<void> {
    const row = await store.findWebhook(this.deps.db, organizationId, id)
    if (!row) throw problems.notFound('Figma webhook')
    const token = await this.deps.storedToken(organizationId)
    if (token !== null) await this.deleteAtFigma(token, [row])
    await store.deleteWebhook(this.deps.db, organizationId, id)
  }

  /** Removes every webhook of the organization at Figma, as far as it answers (its rows go with the connection). */
  async deleteAllAtFigma(organizationId: string, token: string): Promise<void> {
    await this.deleteAtFigma(token, await store.listWebhooks(this.deps.db, organizationId))
  }

  /**
   * An event Figma sent to `/hooks/figma/{slug}`: its passcode must be one of that organization's
   * webhooks', compared in constant time with every one of them; an unknown organization is refused
   * the same way, so slugs cannot be probed. A file's event queues its imports again, debounced.
   */
  async receive(slug: string, event: FigmaEvent): Promise<void> {
    const rows = await store.passcodeHashes(this.deps.db, slug)
    const presented = sha256Hex(event.passcode)
    let organizationId: string | undefined
    for (const row of rows) {
      if (safeEqual(presented, row.passcode_hash)) organizationId = row.organization_id
    }
    if (rows.length === 0) safeEqual(presented, NO_HASH)
    if (organizationId === undefined) throw problems.forbidden('figma_passcode_invalid', 'The passcode is not one of a Figma webhook this organization registered.')
    if (!SYNCING_EVENTS.has(event.event_type) || !event.file_key) return
    const synced = await this.deps.syncs.requestSync(organizationId, event.file_key, this.deps.debounceMs)
    this.deps.logger.info({ organizationId, fileKey: event.file_key, event: event.event_type, imports: synced }, 'a Figma event queued the file\u2019s imports again')
  }

  private async deleteAtFigma(token: string, rows: readonly store.FigmaWebhookRow[]): Promise<void> {
    const session = this.deps.figma.session(token)
    for (const row of rows.filter((one) => one.figma_webhook_id !== '')) {
      await session.deleteWebhook(row.figma_webhook_id).catch((error: unknown) => {
        this.deps.logger.warn({ figmaWebhookId: row.figma_webhook_id, err: error }, 'could not delete a webhook at Figma; it is removed here, and its events are refused')
      })
    }
  }

  private view(row: store.FigmaWebhookRow, slug: string): FigmaWebhookView {
    return {
      id: row.id,
      event_type: row.event_type,
      context: row.context,
      context_id: row.context_id,
      figma_webhook_id: row.figma_webhook_id,
      endpoint: this.endpoint(slug),
      created_at: row.created_at.toISOString(),
    }
  }
}

/** What the webhook watches: the file of `file_url`, or `context` and `context_id`. */
function watched(input: CreateFigmaWebhookInput): Pick<store.FigmaWebhookRow, 'context' | 'context_id'> {
  if (input.file_url !== undefined) {
    if (input.context_id !== undefined || (input.context !== undefined && input.context !== 'file')) {
      throw problems.validation([{ pointer: '/file_url', detail: 'names a file: give it alone, or `context` and `context_id` instead' }])
    }
    const file = parseFigmaUrl(input.file_url)
    if (!file) throw new AppError('invalid_figma_url', 'This is not a Figma file or design link with a file key.')
    return { context: 'file', context_id: file.fileKey }
  }
  if (input.context === undefined || input.context_id === undefined) {
    throw problems.validation([{ pointer: '/context_id', detail: 'give `context` and `context_id`, or `file_url`' }])
  }
  return { context: input.context, context_id: input.context_id }
}
