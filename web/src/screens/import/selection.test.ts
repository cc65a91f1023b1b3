import { describe, expect, it } from 'vitest'
import { coverage, frameIds, pickableNodes, selectionOf, toggleAll, type Outline } from './selection'

const outline: Outline = {
  file_key: 'AbCdEf1234567890',
  file_name: 'Brand kit',
  version: '1',
  node_id: null,
  pages: [
    {
      id: '0:1',
      name: 'Brand',
      frames: [
        { id: '1:2', name: 'Hero', type: 'FRAME', thumbnail_url: 'https://figma.test/1-2.png' },
        { id: '1:3', name: 'Banner', type: 'FRAME', thumbnail_url: null },
      ],
    },
    { id: '0:2', name: 'Icons', frames: [{ id: '2:1', name: 'Star', type: 'COMPONENT', thumbnail_url: 'https://figma.test/2-1.png' }] },
  ],
  components: [
    { id: '2:1', name: 'Star', page: 'Icons', component_set: null, thumbnail_url: 'https://figma.test/2-1.png' },
    { id: '3:1', name: 'Size=Small', page: null, component_set: 'Button', thumbnail_url: null },
  ],
}

describe('the Import screen\u2019s pick', () => {
  it('names exactly the frames `frames`, exactly the components `components`, and anything else node by node in the outline\u2019s order', () => {
    expect(selectionOf(outline, new Set(['1:3', '2:1', '1:2']))).toEqual({ select: 'frames' })
    expect(selectionOf(outline, new Set(['3:1', '2:1']))).toEqual({ select: 'components' })
    expect(selectionOf(outline, new Set(['3:1', '1:2']))).toEqual({ select: 'nodes', node_ids: ['1:2', '3:1'] })
    expect(selectionOf(outline, new Set(['1:2', '1:3', '2:1', '3:1']))).toEqual({ select: 'nodes', node_ids: ['1:2', '1:3', '2:1', '3:1'] })
    expect(selectionOf(outline, new Set())).toBeNull()
  })

  it('lists a top-level component once, as its page\u2019s node, and a variant under its set', () => {
    const nodes = pickableNodes(outline)
    expect([...nodes.keys()]).toEqual(['1:2', '1:3', '2:1', '3:1'])
    expect(nodes.get('2:1')).toMatchObject({ type: 'COMPONENT', group: 'Icons' })
    expect(nodes.get('3:1')).toMatchObject({ name: 'Size=Small', group: 'Button', thumbnailUrl: null })
  })

  it('picks and unpicks a page whole, and says whether a page is picked in part', () => {
    const brand = ['1:2', '1:3']
    const one = toggleAll(new Set(), ['1:2'], true)
    expect(coverage(one, brand)).toBe('some')
    const whole = toggleAll(one, brand, true)
    expect(coverage(whole, brand)).toBe('all')
    expect(coverage(toggleAll(whole, brand, false), brand)).toBe('none')
    expect(frameIds(outline)).toEqual(['1:2', '1:3', '2:1'])
  })
})
