import { describe, expect, it } from 'vitest'
import { figmaExternalId, figmaNodeLink, parseFigmaUrl } from '../../src/modules/imports/figma-url.js'

describe('Figma links', () => {
  it('reads the file key of every kind of file link, and the node id in Figma\u2019s form', () => {
    expect(parseFigmaUrl('https://www.figma.com/design/AbCdEf1234567890/Brand-kit?node-id=12-345&t=xyz-0')).toEqual({ fileKey: 'AbCdEf1234567890', nodeId: '12:345' })
    expect(parseFigmaUrl('https://www.figma.com/file/AbCdEf1234567890/Brand')).toEqual({ fileKey: 'AbCdEf1234567890', nodeId: null })
    expect(parseFigmaUrl('https://figma.com/proto/AbCdEf1234567890/x?node-id=1%3A2')).toEqual({ fileKey: 'AbCdEf1234567890', nodeId: '1:2' })
    expect(parseFigmaUrl('https://www.figma.com/board/AbCdEf1234567890/Ideas')).toEqual({ fileKey: 'AbCdEf1234567890', nodeId: null })
    expect(parseFigmaUrl('  https://www.figma.com/design/AbCdEf1234567890/  ')).toEqual({ fileKey: 'AbCdEf1234567890', nodeId: null })
  })

  it('takes a branch link\u2019s own key, which is the file the API opens', () => {
    expect(parseFigmaUrl('https://www.figma.com/design/AbCdEf1234567890/branch/ZyXwVu0987654321/Brand?node-id=0-1')).toEqual({ fileKey: 'ZyXwVu0987654321', nodeId: '0:1' })
  })

  it('refuses what is not a Figma file link', () => {
    for (const link of [
      'https://example.com/design/AbCdEf1234567890/x',
      'http://www.figma.com/design/AbCdEf1234567890/x',
      'https://www.figma.com.evil.test/design/AbCdEf1234567890/x',
      'https://www.figma.com/files/team/123/Projects',
      'https://www.figma.com/design/',
      'https://www.figma.com/design/short/x',
      'https://www.figma.com/design/AbCdEf1234567890/x?node-id=<script>',
      'figma:AbCdEf1234567890',
      'not a url',
      '',
    ]) {
      expect(parseFigmaUrl(link), link).toBeNull()
    }
  })

  it('links a node back into Figma, and names its asset by file and node', () => {
    expect(figmaNodeLink('AbCdEf1234567890', '1:2')).toBe('https://www.figma.com/design/AbCdEf1234567890/?node-id=1-2')
    expect(figmaNodeLink('AbCdEf1234567890', 'I1:2;3:4')).toBe('https://www.figma.com/design/AbCdEf1234567890/?node-id=I1-2%3B3-4')
    expect(figmaExternalId('AbCdEf1234567890', '1:2')).toBe('figma:AbCdEf1234567890:1:2')
  })
})
