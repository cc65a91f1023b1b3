import { render, screen } from '@testing-library/react'
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
})
