export interface CircuitBreakerOptions {
  /** Failures in a row that open the circuit. */
  failuresToOpen: number
  /** The pause before each probe while the circuit is open. */
  probeIntervalMs: number
  /** Asks the dependency once, within a timeout of its own; rejects when it did not answer. */
  probe: () => Promise<void>
  onOpen: (error: Error) => void
  onClose: () => void
}

/**
 * Stops calls to a dependency that keeps failing, so that callers do not each wait out its timeout:
 * after `failuresToOpen` failures in a row the circuit opens, and a probe (one at a time) asks the
 * dependency in the background every `probeIntervalMs` until it answers, which closes the circuit.
 */
export class CircuitBreaker {
  private failures = 0
  private open = false
  private stopped = false
  private probeTimer: NodeJS.Timeout | undefined

  constructor(private readonly options: CircuitBreakerOptions) {}

  get isOpen(): boolean {
    return this.open
  }

  succeeded(): void {
    this.failures = 0
  }

  failed(error: Error): void {
    if (this.open) return
    this.failures++
    if (this.failures >= this.options.failuresToOpen) this.trip(error)
  }

  private trip(error: Error): void {
    if (this.open) return
    this.open = true
    this.options.onOpen(error)
    this.scheduleProbe()
  }

  stop(): void {
    this.stopped = true
    clearTimeout(this.probeTimer)
  }

  private scheduleProbe(): void {
    if (this.stopped) return
    this.probeTimer = setTimeout(() => void this.probeOnce(), this.options.probeIntervalMs)
    this.probeTimer.unref()
  }

  private async probeOnce(): Promise<void> {
    try {
      await this.options.probe()
    } catch {
      this.scheduleProbe()
      return
    }
    this.open = false
    this.failures = 0
    this.options.onClose()
  }
}
