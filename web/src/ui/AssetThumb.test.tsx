import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { AiBadge, AssetThumb, assetTitle } from './AssetThumb'

describe('the asset thumbnail', () => {
  it('names an asset by its title, or "Untitled" when the title is blank', () => {
    expect(assetTitle({ title: 'Logo' })).toBe('Logo')
    expect(assetTitle({ title: '  ' })).toBe('Untitled')
    expect(assetTitle({ title: null })).toBe('Untitled')
  })

  it('loads the image lazily in a box sized by the asset, decorative, with what sits over it', () => {
    const { container } = render(
      <AssetThumb asset={{ title: 'Logo', thumbnail_url: '/t/1', width: 640, height: 240 }}>
        <AiBadge />
      </AssetThumb>,
    )
    const image = container.querySelector('img')!
    expect(image.getAttribute('loading')).toBe('lazy')
    expect(image.getAttribute('alt')).toBe('')
    expect([image.getAttribute('width'), image.getAttribute('height')]).toEqual(['640', '240'])
    expect(screen.getByTitle('Created by AI').textContent).toBe('AI')
  })

  it('says nothing of transparency before the picture loads, and counts a picture it cannot read as transparent', () => {
    const { container } = render(<AssetThumb asset={{ title: 'Logo', thumbnail_url: '/t/unreadable', width: 640, height: 240 }} />)
    const box = container.querySelector('.asset-thumb')!
    expect(box.hasAttribute('data-transparency')).toBe(false)
    // No canvas here to read pixels with: the safe side is a checkerboard, which hides nothing.
    const image = container.querySelector('img')!
    fireEvent.load(image)
    expect(box.getAttribute('data-transparency')).toBe('transparent')
    // A picture of no known size keeps the whole square rather than shrinking to nothing.
    expect([image.style.width, image.style.height]).toEqual(['100%', '100%'])
  })

  it('shows "No preview" in its box instead of a broken image when the thumbnail cannot be loaded, and tries a new one', () => {
    const asset = { title: 'Corrupt', thumbnail_url: '/t/failed', width: 640, height: 240 }
    const { container, rerender } = render(
      <AssetThumb asset={asset}>
        <AiBadge />
      </AssetThumb>,
    )
    fireEvent.error(container.querySelector('img')!)
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('.asset-thumb')!.getAttribute('data-preview')).toBe('none')
    expect(screen.getByText('No preview')).toBeTruthy()
    expect(screen.getByTitle('Created by AI')).toBeTruthy()
    rerender(<AssetThumb asset={{ ...asset, thumbnail_url: '/t/remade' }} />)
    expect(container.querySelector('img')!.getAttribute('src')).toBe('/t/remade')
  })
})
