import { describe, expect, it } from 'vitest'
import { downloadHref, downloadName } from './download'

describe('the original’s download', () => {
  it('is named by the title with the format’s extension, safe for file systems', () => {
    expect(downloadName({ title: 'Brand logo', mime_type: 'image/png' })).toBe('Brand logo.png')
    expect(downloadName({ title: 'photo.JPG', mime_type: 'image/jpeg' })).toBe('photo.JPG')
    expect(downloadName({ title: 'Q3/Q4: "final"?', mime_type: 'image/svg+xml' })).toBe('Q3-Q4- -final-.svg')
    expect(downloadName({ title: '  ', mime_type: 'image/webp' })).toBe('asset.webp')
  })

  it('keeps the signed query and adds the name as `download`', () => {
    const href = new URL(downloadHref({ title: 'Crème', mime_type: 'image/gif', original_url: 'http://x.test/files/assets/a/original?expires=1&sig=ab' }))
    expect(href.pathname).toBe('/files/assets/a/original')
    expect(Object.fromEntries(href.searchParams)).toEqual({ expires: '1', sig: 'ab', download: 'Crème.gif' })
  })
})
