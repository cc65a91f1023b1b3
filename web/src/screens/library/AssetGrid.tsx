import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react'
import { columnsOf, moveInGrid } from './gridNav'

/** What a card shows: a listed asset and a search hit both have these. */
export interface CardAsset {
  id: string
  title: string
  asset_type: string | null
  client: string | null
  created_by_ai: boolean
  thumbnail_url: string
  width: number
  height: number
}

export interface AssetGridProps {
  items: readonly CardAsset[]
  selected: ReadonlySet<string>
  /** The checkbox of a card, or Space on it; `range` when shift was held. */
  onToggle(id: string, index: number, range: boolean): void
  onOpen(id: string): void
  /** Esc in the grid. */
  onEscape(): void
}

/**
 * The thumbnails, one tab stop (roving tabindex): arrows, Home/End and PageUp/PageDown move the focus,
 * Enter opens, Space selects, Esc clears the selection.
 */
export function AssetGrid({ items, selected, onToggle, onOpen, onEscape }: AssetGridProps) {
  const [active, setActive] = useState(0)
  const list = useRef<HTMLUListElement>(null)
  const current = Math.min(active, Math.max(items.length - 1, 0))

  const cards = () => Array.from(list.current?.querySelectorAll<HTMLElement>('article[data-index]') ?? [])

  const keyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const target = event.target as HTMLElement
    const card = target.closest<HTMLElement>('article[data-index]')
    if (!card) return
    const index = Number(card.dataset.index)
    if (event.key === 'Escape') {
      onEscape()
      return
    }
    if (target !== card) return // keys inside the checkbox are the checkbox's
    if (event.key === 'Enter') {
      event.preventDefault()
      onOpen(items[index]!.id)
      return
    }
    if (event.key === ' ') {
      event.preventDefault()
      onToggle(items[index]!.id, index, event.shiftKey)
      return
    }
    const all = cards()
    const next = moveInGrid(index, event.key, items.length, columnsOf(all))
    if (next === null) return
    event.preventDefault()
    setActive(next)
    all[next]?.focus()
  }

  const click = (event: MouseEvent, id: string, index: number) => {
    setActive(index)
    if (event.shiftKey || event.metaKey || event.ctrlKey) {
      event.preventDefault()
      onToggle(id, index, event.shiftKey)
    } else onOpen(id)
  }

  return (
    <ul ref={list} className={`asset-grid${selected.size > 0 ? ' selecting' : ''}`} aria-label="Assets" onKeyDown={keyDown}>
      {items.map((asset, index) => {
        const isSelected = selected.has(asset.id)
        const titleId = `asset-title-${asset.id}`
        return (
          <li key={asset.id}>
            <article
              className={`asset-card${isSelected ? ' selected' : ''}`}
              aria-labelledby={titleId}
              tabIndex={index === current ? 0 : -1}
              data-index={index}
              onFocus={(e) => e.target === e.currentTarget && setActive(index)}
              onClick={(e) => click(e, asset.id, index)}
            >
              <label className="select-box" onClick={(e) => e.stopPropagation()}>
                <input
                  type="checkbox"
                  aria-label={`Select ${asset.title}`}
                  checked={isSelected}
                  tabIndex={index === current ? 0 : -1}
                  onChange={(e) => onToggle(asset.id, index, (e.nativeEvent as globalThis.MouseEvent).shiftKey === true)}
                />
              </label>
              <div className="asset-thumb">
                <img src={asset.thumbnail_url} alt="" width={asset.width} height={asset.height} loading="lazy" decoding="async" draggable={false} />
              </div>
              <div className="asset-meta">
                <h3 className="asset-title" id={titleId} title={asset.title}>
                  {asset.title || 'Untitled'}
                </h3>
                <div className="asset-sub">
                  <span>{[asset.asset_type, asset.client].filter(Boolean).join(' · ') || '\u00a0'}</span>
                  {asset.created_by_ai && (
                    <span className="badge ai" title="Created by AI">
                      AI
                    </span>
                  )}
                </div>
              </div>
            </article>
          </li>
        )
      })}
    </ul>
  )
}
