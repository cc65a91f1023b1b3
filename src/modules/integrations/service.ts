import type { FastifyBaseLogger } from 'fastify'
import { seal, unseal } from '../../platform/crypto.js'
import { inTransaction, type Db } from '../../platform/db/index.js'
import type { ActorKind } from '../../platform/db/schema.js'
import type { FigmaApi } from '../imports/figma-api.js'
import { askFigma } from './figma-errors.js'
import * as store from './store.js'

/** The purpose the organization's Figma token is sealed under (platform/crypto.ts). */
const SEAL_PURPOSE = 'figma-token'

export interface FigmaConnectionView {
  connected: boolean
  figma_user: { id: string; handle: string; email: string | null } | null
  connected_by: string | null
  updated_at: string | null
}

const NOT_CONNECTED: FigmaConnectionView = { connected: false, figma_user: null, connected_by: null, updated_at: null }

function connectionView(row: store.FigmaConnectionRow | null): FigmaConnectionView {
  if (!row) return NOT_CONNECTED
  return {
    connected: true,
    figma_user: { id: row.figma_user_id, handle: row.figma_handle, email: row.figma_email },
    connected_by: row.connected_by_name,
    updated_at: row.updated_at.toISOString(),
  }
}

/** Who stores a token: the signed-in owner or admin. */
export interface Connector {
  kind: ActorKind
  name: string
}

/**
 * The organization's stored Figma personal access token: checked with Figma's `GET /v1/me` when it is
 * stored, kept sealed under APP_SECRET, never shown again. Imports and webhooks read it with `token`.
 */
export class FigmaConnections {
  constructor(
    private readonly deps: {
      db: Db
      figma: FigmaApi
      appSecret: string
      logger: FastifyBaseLogger
      /** Removes the organization's webhooks at Figma, before the token that registered them goes. */
      beforeDisconnect: (organizationId: string, token: string) => Promise<void>
    },
  ) {}

  async get(organizationId: string): Promise<FigmaConnectionView> {
    return connectionView(await store.findConnection(this.deps.db, organizationId))
  }

  /** Checks `token` with Figma, then stores it in place of the organization's, sealed. */
  async store(organizationId: string, token: string, by: Connector): Promise<FigmaConnectionView> {
    const me = await askFigma(() => this.deps.figma.session(token).me())
    const row = await store.upsertConnection(this.deps.db, {
      organization_id: organizationId,
      token_sealed: seal(this.deps.appSecret, SEAL_PURPOSE, token),
      figma_user_id: me.id,
      figma_handle: me.handle,
      figma_email: me.email || null,
      connected_by_kind: by.kind,
      connected_by_name: by.name,
    })
    return connectionView(row)
  }

  /** Removes the token, and the organization's Figma webhooks (at Figma as far as it answers, and here). */
  async remove(organizationId: string): Promise<void> {
    const token = await this.token(organizationId)
    if (token !== null) await this.deps.beforeDisconnect(organizationId, token)
    await inTransaction(this.deps.db, (tx) => store.deleteConnection(tx, organizationId))
  }

  /** The organization's token, unsealed (see storedFigmaTokens); null when it stored none. */
  token(organizationId: string): Promise<string | null> {
    return storedFigmaTokens(this.deps)(organizationId)
  }
}

/**
 * Reads organizations' stored tokens, unsealed; null for one that stored none. A process without the
 * HTTP app (a worker running imports) needs only this. A token sealed under another APP_SECRET cannot
 * be read: it counts as none (and says so in the log), so the organization stores it again.
 */
export function storedFigmaTokens(deps: { db: Db; appSecret: string; logger: FastifyBaseLogger }): (organizationId: string) => Promise<string | null> {
  return async (organizationId) => {
    const row = await store.findConnection(deps.db, organizationId)
    if (!row) return null
    try {
      return unseal(deps.appSecret, SEAL_PURPOSE, row.token_sealed)
    } catch {
      deps.logger.warn({ organizationId }, 'the stored Figma token cannot be unsealed (APP_SECRET changed?): it counts as none until stored again')
      return null
    }
  }
}
