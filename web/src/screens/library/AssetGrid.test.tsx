import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { AssetGrid, type CardAsset } from './AssetGrid'

const asset = (id: string, title: string, ai = false): CardAsset => ({
  id,
  title,
  asset_type: 'Logo',
  client: 'Initech',
  created_by_ai: ai,
  thumbnail_url: `/thumb/${id}`,
  width: 100,
  height: 100,
})
const items = [asset('a', 'Alpha'), asset('b', 'Bravo', true), asset('c', 'Charlie')]

function setup(selected: string[] = []) {
  const props = { onToggle: vi.fn(), onOpen: vi.fn(), onEscape: vi.fn() }
  render(<AssetGrid items={items} selected={new Set(selected)} {...props} />)
  return props
}

describe('the asset grid', () => {
  it('names each card by its title and badges the AI one', () => {
    setup()
    expect(screen.getAllByRole('article')).toEqual(['Alpha', 'Bravo', 'Charlie'].map((name) => screen.getByRole('article', { name })))
    expect(screen.getByRole('article', { name: 'Bravo' }).querySelector('[title="Created by AI"]')?.textContent).toBe('AI')
    expect(screen.getByRole('article', { name: 'Alpha' }).querySelector('[title="Created by AI"]')).toBeNull()
  })

  it('marks an asset with more than one version by its number', () => {
    render(<AssetGrid items={[{ ...asset('v', 'Versioned'), version: 3 }, { ...asset('o', 'Once'), version: 1 }]} selected={new Set()} onToggle={vi.fn()} onOpen={vi.fn()} onEscape={vi.fn()} />)
    expect(screen.getByRole('article', { name: 'Versioned' }).querySelector('[title="Version 3"]')?.textContent).toBe('v3')
    expect(screen.getByRole('article', { name: 'Once' }).querySelector('.badge.version')).toBeNull()
  })

  it('names an untitled asset "Untitled"', () => {
    render(<AssetGrid items={[asset('u', '')]} selected={new Set()} onToggle={vi.fn()} onOpen={vi.fn()} onEscape={vi.fn()} />)
    expect(screen.getByRole('article', { name: 'Untitled' })).toBeTruthy()
    expect(screen.getByRole('checkbox', { name: 'Select Untitled' })).toBeTruthy()
  })

  it('makes each title a link to the asset, which opens by itself and never selects', () => {
    const props = setup()
    const link = screen.getByRole('link', { name: 'Bravo' })
    expect(link.getAttribute('href')).toBe('/assets/b')
    fireEvent.click(link, { ctrlKey: true })
    expect(props.onToggle).not.toHaveBeenCalled()
    expect(props.onOpen).not.toHaveBeenCalled()
  })

  it('opens on a plain click of the image and selects on a Ctrl-click', () => {
    const props = setup()
    const image = screen.getByRole('article', { name: 'Charlie' }).querySelector('img')!
    fireEvent.click(image)
    expect(props.onOpen).toHaveBeenCalledWith('c')
    fireEvent.click(image, { ctrlKey: true })
    expect(props.onToggle).toHaveBeenCalledWith('c', 2, false)
  })

  it('tells keyboard users how the grid works', () => {
    setup()
    const grid = screen.getByRole('list', { name: 'Assets' })
    expect(document.getElementById(grid.getAttribute('aria-describedby')!)?.textContent).toMatch(/Arrow keys move, Enter opens, Space selects/)
  })

  it('has one tab stop that the arrows move', () => {
    setup()
    const [alpha, bravo, charlie] = screen.getAllByRole('article')
    expect([alpha, bravo, charlie].map((c) => c!.tabIndex)).toEqual([0, -1, -1])
    alpha!.focus()
    fireEvent.keyDown(alpha!, { key: 'ArrowRight' })
    expect(document.activeElement).toBe(bravo)
    expect([alpha, bravo, charlie].map((c) => c!.tabIndex)).toEqual([-1, 0, -1])
    fireEvent.keyDown(bravo!, { key: 'End' })
    expect(document.activeElement).toBe(charlie)
    fireEvent.keyDown(charlie!, { key: 'Home' })
    expect(document.activeElement).toBe(alpha)
  })

  it('opens with Enter, selects with Space, and lets Esc clear', () => {
    const props = setup()
    const bravo = screen.getByRole('article', { name: 'Bravo' })
    fireEvent.keyDown(bravo, { key: 'Enter' })
    expect(props.onOpen).toHaveBeenCalledWith('b')
    fireEvent.keyDown(bravo, { key: ' ' })
    expect(props.onToggle).toHaveBeenCalledWith('b', 1, false)
    fireEvent.keyDown(bravo, { key: 'Escape' })
    expect(props.onEscape).toHaveBeenCalled()
  })

  it('selects with the checkbox without opening the card', () => {
    const props = setup(['c'])
    expect((screen.getByRole('checkbox', { name: 'Select Charlie' }) as HTMLInputElement).checked).toBe(true)
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Alpha' }))
    expect(props.onToggle).toHaveBeenCalledWith('a', 0, false)
    expect(props.onOpen).not.toHaveBeenCalled()
  })
})
