import { Component, type ReactNode } from 'react'

/**
 * A screen that fails to render (our bug), or whose code cannot be loaded any more (a new release
 * replaced its hashed file while this tab was open), shows what happened and a way on, not a blank page.
 */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { error: Error | null }> {
  override state = { error: null as Error | null }

  static getDerivedStateFromError(error: Error) {
    return { error }
  }

  /** Going elsewhere (a new `resetKey`) leaves the failed screen behind. */
  override componentDidUpdate(previous: { resetKey?: string }) {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null })
  }

  override render() {
    const { error } = this.state
    if (!error) return this.props.children
    const stale = /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message)
    return (
      <section className="query-error" role="alert">
        <p>
          <strong>{stale ? 'A new version of Asset Library is available.' : 'This screen failed.'}</strong>{' '}
          {stale ? 'Reload to get it.' : `${error.message} Reload to try again; if it happens again, tell your administrator.`}
        </p>
        <button type="button" onClick={() => location.reload()}>
          Reload
        </button>
      </section>
    )
  }
}
