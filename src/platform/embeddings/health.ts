import type { FastifyBaseLogger } from 'fastify'
import type { EmbeddingError } from './provider.js'

/** What /ready says of a provider: not asked yet, answering, or failing (and why, in our words). */
export interface ProviderStatus {
  status: 'unknown' | 'ok' | 'failing'
  error?: string
  checked_at?: string
}

/** The last thing a provider's calls said; a failure is logged once per distinct problem, so an outage does not flood the log. */
export class ProviderHealth {
  private current: ProviderStatus = { status: 'unknown' }

  constructor(
    private readonly logger: FastifyBaseLogger,
    /** How the log names the provider ("embedding provider", "image embedding provider"). */
    private readonly label: string,
  ) {}

  get status(): ProviderStatus {
    return this.current
  }

  succeeded(): void {
    this.current = { status: 'ok', checked_at: new Date().toISOString() }
  }

  failed(error: EmbeddingError, context: string): void {
    const repeated = this.current.status === 'failing' && this.current.error === error.message
    this.current = { status: 'failing', error: error.message, checked_at: new Date().toISOString() }
    if (repeated) return
    const level = error.kind === 'dimension_mismatch' ? 'error' : 'warn'
    this.logger[level]({ kind: error.kind, detail: error.message, provider_said: error.providerSaid }, `${this.label}: ${context}`)
  }
}
