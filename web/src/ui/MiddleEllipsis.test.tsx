import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { KEPT_END, MiddleEllipsis } from './MiddleEllipsis'

describe('the middle ellipsis', () => {
  it('keeps the distinguishing end of a long name apart from its start, the whole name as title and accessible name', () => {
    const { container } = render(
      <a href="/assets/1">
        <MiddleEllipsis text="softwaves-wallpaper-1280" />
      </a>,
    )
    expect(container.querySelector('.middle-ellipsis-start')?.textContent).toBe('softwaves-wallpa')
    expect(container.querySelector('.middle-ellipsis-end')?.textContent).toBe('per-1280')
    expect(container.querySelector('.middle-ellipsis-end')?.textContent).toHaveLength(KEPT_END)
    expect(container.querySelector('.middle-ellipsis')?.getAttribute('title')).toBe('softwaves-wallpaper-1280')
    expect(screen.getByRole('link', { name: 'softwaves-wallpaper-1280' })).toBeTruthy()
  })

  it('tells two names that differ only at the end apart', () => {
    const ends = ['softwaves-wallpaper-1280', 'softwaves-wallpaper-1600'].map((text) => {
      const { container } = render(<MiddleEllipsis text={text} />)
      return container.querySelector('.middle-ellipsis-end')?.textContent
    })
    expect(ends).toEqual(['per-1280', 'per-1600'])
  })

  it('leaves a short name whole, and never splits a character made of two code units', () => {
    const { container } = render(<MiddleEllipsis text="Logo" />)
    expect(container.textContent).toBe('Logo')
    expect(container.querySelector('.middle-ellipsis')).toBeNull()
    const long = render(<MiddleEllipsis text={'a'.repeat(20) + '\u{1F600}bcdefgh'} />)
    expect(long.container.querySelector('.middle-ellipsis-end')?.textContent).toBe('\u{1F600}bcdefgh')
  })
})
