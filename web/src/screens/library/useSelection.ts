import { useState } from 'react'
import { rangeOf } from './gridNav'

interface State {
  /** The items the selection was last checked against. */
  items: readonly { id: string }[]
  ids: ReadonlySet<string>
  /** The asset a shift-click ranges from: an id, so a new list cannot make it point at another one. */
  anchor: string | null
}

/**
 * Multi-select over the items shown. When the items change (a filter, a search, a delete), ids no
 * longer shown are dropped, not hidden: clearing the filter does not bring them back selected. Pass
 * a stable `items` array (memoised), since a new array is taken as a change.
 */
export function useSelection(items: readonly { id: string }[]) {
  const [state, setState] = useState<State>({ items, ids: new Set(), anchor: null })
  let current = state
  if (state.items !== items) {
    // Adjusting state to new props during render (React's documented pattern), not in an effect.
    const shown = new Set(items.map((item) => item.id))
    current = {
      items,
      ids: new Set([...state.ids].filter((id) => shown.has(id))),
      anchor: state.anchor !== null && shown.has(state.anchor) ? state.anchor : null,
    }
    setState(current)
  }

  const toggle = (id: string, index: number, range: boolean) => {
    setState((previous) => {
      const ids = new Set(previous.ids)
      const from = previous.anchor === null ? -1 : previous.items.findIndex((item) => item.id === previous.anchor)
      if (range && from >= 0) {
        for (const item of rangeOf(previous.items, from, index)) ids.add(item.id)
      } else if (ids.has(id)) ids.delete(id)
      else ids.add(id)
      return { ...previous, ids, anchor: id }
    })
  }
  const clear = () => setState((previous) => ({ ...previous, ids: new Set(), anchor: null }))

  return { selected: current.ids, ids: [...current.ids], toggle, clear }
}
