import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react'
import { Link } from 'wouter'
import { AiBadge, AssetThumb, assetTitle, type ThumbAsset } from '../../ui/AssetThumb'
import { MiddleEllipsis } from '../../ui/MiddleEllipsis'
import { columnsOf, moveInGrid } from './gridNav'

/** What a card shows: a listed asset and a search hit both have these. */
export interface CardAsset extends ThumbAsset {
  id: string
  asset_type: string | null
  client: string | null
  created_by_ai: boolean
  /** Shown on the card from the second version on. */
  version?: number
}

export interface AssetGridProps {
  items: readonly CardAsset[]
  selected: ReadonlySet<string>
  /** The checkbox of a card, Space on it, or a Ctrl/Cmd/Shift-click on its image; `range` when shift was held. */
  onToggle(id: string, index: number, range: boolean): void
  /** Enter on a card, or a plain click on its image (the title is a link of its own). */
  onOpen(id: string): void
  /** Esc in the grid. */
  onEscape(): void
  /** History state that the title links carry (where "back" goes from the detail). */
  linkState?: unknown
}

export const assetHref = (id: string) => `/assets/${id}`

/** The asset last opened from a grid (this tab): coming back puts the focus on its card again, as a page's Back would. */
const LAST_OPENED = 'asset-library:last-opened'
const rememberOpened = (id: string) => sessionStorage.setItem(LAST_OPENED, id)

/**
 * The thumbnails, one tab stop (roving tabindex): arrows, Home/End and PageUp/PageDown move the focus,
 * Enter opens, Space selects, Esc clears the selection. Each title is a real link, so Ctrl/Cmd or middle
 * click opens a new tab.
 */
export function AssetGrid({ items, selected, onToggle, onOpen, onEscape, linkState }: AssetGridProps) {
  const [active, setActive] = useState(0)
  const list = useRef<HTMLUListElement>(null)
  const helpId = useId()
  const current = Math.min(active, Math.max(items.length - 1, 0))

  const cards = () => Array.from(list.current?.querySelectorAll<HTMLElement>('article[data-index]') ?? [])

  useEffect(() => {
    const opened = sessionStorage.getItem(LAST_OPENED)
    const index = opened === null ? -1 : items.findIndex((asset) => asset.id === opened)
    if (index < 0) return
    sessionStorage.removeItem(LAST_OPENED)
    list.current?.querySelector<HTMLElement>(`article[data-index="${index}"]`)?.focus()
  }, [items])

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
      rememberOpened(items[index]!.id)
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
    // The title link opens by itself (and in a new tab with a modifier or the middle button).
    if ((event.target as HTMLElement).closest('a')) {
      rememberOpened(id)
      return
    }
    if (event.shiftKey || event.metaKey || event.ctrlKey) {
      event.preventDefault()
      onToggle(id, index, event.shiftKey)
    } else {
      rememberOpened(id)
      onOpen(id)
    }
  }

  return (
    <>
      <p id={helpId} className="visually-hidden">
        Arrow keys move, Enter opens, Space selects, Escape clears the selection.
      </p>
      <ul ref={list} className={`asset-grid${selected.size > 0 ? ' selecting' : ''}`} aria-label="Assets" aria-describedby={helpId} onKeyDown={keyDown}>
        {items.map((asset, index) => {
          const isSelected = selected.has(asset.id)
          const titleId = `asset-title-${asset.id}`
          const title = assetTitle(asset)
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
                    aria-label={`Select ${title}`}
                    checked={isSelected}
                    tabIndex={index === current ? 0 : -1}
                    onChange={(e) => onToggle(asset.id, index, (e.nativeEvent as globalThis.MouseEvent).shiftKey === true)}
                  />
                </label>
                <AssetThumb asset={asset} />
                {isSelected && <SelectedMark />}
                <div className="asset-meta">
                  <h3 className="asset-title" title={title}>
                    {/* Not a tab stop of its own: the card is, and Enter on it opens. */}
                    <Link href={assetHref(asset.id)} state={linkState} id={titleId} tabIndex={-1}>
                      <MiddleEllipsis text={title} />
                    </Link>
                  </h3>
                  <div className="asset-sub">
                    <span>{[asset.asset_type, asset.client].filter(Boolean).join(' · ') || '\u00a0'}</span>
                    {asset.version !== undefined && asset.version > 1 && (
                      <span className="badge version" title={`Version ${asset.version}`}>
                        v{asset.version}
                      </span>
                    )}
                    {asset.created_by_ai && <AiBadge />}
                  </div>
                </div>
              </article>
            </li>
          )
        })}
      </ul>
    </>
  )
}

/** The check mark of a selected card (its checkbox says so to assistive technology). */
function SelectedMark() {
  return (
    <span className="selected-mark" aria-hidden="true">
      <svg width="14" height="14" viewBox="0 0 14 14" fill="none" stroke="currentColor" strokeWidth="2.25" strokeLinecap="round" strokeLinejoin="round">
        <path d="M2.5 7.5l3 3 6-7" />
      </svg>
    </span>
  )
}
