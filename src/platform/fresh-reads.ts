interface Waiters<V> {
  promise: Promise<V>
  resolve: (value: V) => void
  reject: (error: unknown) => void
}

interface KeyState<V, A> {
  /** Callers that arrived while a read was under way: they share the read that starts after it, with the first one's argument. */
  next: (Waiters<V> & { argument: A }) | undefined
}

/**
 * Reads of a small value that must reflect every write committed before the caller asked, shared by
 * concurrent callers. A caller never joins a read already under way, whose snapshot could predate a
 * commit the caller has seen acknowledged: it joins the next read, which starts when the current one
 * ends. Under load that is at most one read in flight and one waiting per key, whatever the callers.
 * A read may take an argument besides its key: callers of one key must pass equivalent ones.
 */
export class FreshReads<V, A = void> {
  private readonly states = new Map<string, KeyState<V, A>>()

  constructor(private readonly read: (key: string, argument: A) => Promise<V>) {}

  get(key: string, argument: A): Promise<V> {
    const state = this.states.get(key)
    if (!state) {
      const started: KeyState<V, A> = { next: undefined }
      this.states.set(key, started)
      return this.run(key, started, argument)
    }
    state.next ??= { ...waiters<V>(), argument }
    return state.next.promise
  }

  private run(key: string, state: KeyState<V, A>, argument: A): Promise<V> {
    const reading = this.read(key, argument)
    void reading.then(
      () => this.readEnded(key, state),
      () => this.readEnded(key, state),
    )
    return reading
  }

  private readEnded(key: string, state: KeyState<V, A>): void {
    const next = state.next
    if (!next) {
      this.states.delete(key)
      return
    }
    state.next = undefined
    this.run(key, state, next.argument).then(next.resolve, next.reject)
  }
}

function waiters<V>(): Waiters<V> {
  let resolve!: (value: V) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<V>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
