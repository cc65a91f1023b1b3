import { describe, expect, it } from 'vitest'
import { linkedFrames, topFrames } from '../../src/modules/imports/select.js'
import { unreadSections, type OutlineNode } from '../../src/modules/integrations/outline-tree.js'
import { isReachableFromOutside } from '../../src/modules/integrations/public-url.js'

const node = (id: string, type: string, children?: OutlineNode[]): OutlineNode => ({ id, name: `${type} ${id}`, type, ...(children && { children }) })
const ids = (nodes: readonly OutlineNode[]) => nodes.map((one) => one.id)

describe('the frames an outline lists', () => {
  const page = node('0:1', 'CANVAS', [
    node('1:1', 'FRAME', [node('1:2', 'FRAME')]),
    node('1:3', 'TEXT'),
    node('1:4', 'SECTION', [node('1:5', 'FRAME'), node('1:6', 'TEXT'), node('1:7', 'SECTION', [node('1:8', 'INSTANCE')])]),
    node('1:9', 'COMPONENT_SET', [node('1:10', 'COMPONENT')]),
    node('1:11', 'GROUP', [node('1:12', 'FRAME')]),
    node('1:13', 'COMPONENT'),
  ])

  it('are the top-level frames, components, sets and instances, those in sections in their place', () => {
    expect(ids(topFrames(page))).toEqual(['1:1', '1:5', '1:8', '1:9', '1:13'])
  })

  it('of a linked node: a frame itself, a section or page its own', () => {
    expect(ids(linkedFrames(node('1:1', 'FRAME', [node('1:2', 'FRAME')])))).toEqual(['1:1'])
    expect(ids(linkedFrames(node('1:8', 'INSTANCE')))).toEqual(['1:8'])
    expect(ids(linkedFrames(page.children![2]!))).toEqual(['1:5', '1:8'])
    expect(ids(linkedFrames(node('1:11', 'GROUP', [node('1:12', 'FRAME')])))).toEqual(['1:12'])
  })

  it('come with the sections whose children the depth left out, through the loaded ones', () => {
    const shallow = node('0:2', 'CANVAS', [node('2:1', 'SECTION'), node('2:2', 'SECTION', [node('2:3', 'SECTION'), node('2:4', 'FRAME')]), node('2:5', 'FRAME')])
    expect(ids(unreadSections([page, shallow]))).toEqual(['2:1', '2:3'])
    expect(unreadSections([page])).toEqual([])
  })
})

describe('whether Figma can reach PUBLIC_BASE_URL', () => {
  it('is yes for public addresses and dotted names that are not local', () => {
    for (const url of ['https://assets.example.com', 'https://assets.acme.io:8443', 'http://8.8.8.8', 'https://[2606:4700::1111]']) expect(isReachableFromOutside(url, []), url).toBe(true)
  })

  it('is no for loopback, private and link-local addresses, and local names', () => {
    for (const url of ['http://127.0.0.1:3000', 'http://[::1]', 'http://10.0.0.5', 'http://192.168.1.2', 'http://169.254.169.254', 'http://localhost:3000', 'http://app.localhost', 'http://intranet', 'https://assets.local', 'http://assets.test', 'http://nas.lan', 'http://[::ffff:127.0.0.1]']) {
      expect(isReachableFromOutside(url, []), url).toBe(false)
    }
  })

  it('is yes for what OUTBOUND_ALLOWLIST opens: the host, its address, or its network', () => {
    expect(isReachableFromOutside('http://127.0.0.1:3000', ['127.0.0.1'])).toBe(true)
    expect(isReachableFromOutside('http://10.1.2.3', ['10.0.0.0/8'])).toBe(true)
    expect(isReachableFromOutside('http://assets.local', ['assets.local'])).toBe(true)
    expect(isReachableFromOutside('http://localhost:3000', ['127.0.0.1'])).toBe(false)
  })
})
