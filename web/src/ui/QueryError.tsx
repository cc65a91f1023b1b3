import { messageOf } from '../api/problem'

/** A load that failed, in place of what it would have shown: never an empty state that is not true. */
export function QueryError({ error, onRetry, what }: { error: unknown; onRetry(): void; what: string }) {
  return (
    <section className="query-error" role="alert" aria-label={`Could not load ${what}`}>
      <p>
        <strong>Could not load {what}.</strong> {messageOf(error)}
      </p>
      <button type="button" onClick={onRetry}>
        Retry
      </button>
    </section>
  )
}
