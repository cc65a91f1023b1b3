import type { DocumentNode } from '@figma/rest-api-spec'
import { describe, expect, it } from 'vitest'
import { RootNodeNotFound, selectNodes, type SelectionRequest } from '../../src/modules/imports/select.js'

/** Which nodes of a file an import covers (pure: the file's tree in, the nodes out). */

interface Tree {
  id: string
  name: string
  type: string
  children?: Tree[]
}

const node = (id: string, type: string, name: string, children?: Tree[]): Tree => ({ id, name, type, ...(children && { children }) })

const document = node('0:0', 'DOCUMENT', 'Document', [
  node('0:1', 'CANVAS', 'Brand', [
    node('1:1', 'FRAME', 'Hero', [node('1:2', 'RECTANGLE', 'Shape'), node('1:3', 'COMPONENT', 'Inner badge')]),
    node('1:4', 'SECTION', 'Campaign', [node('1:5', 'FRAME', 'Banner'), node('1:6', 'TEXT', 'Note')]),
    node('1:7', 'GROUP', 'Loose group', [node('1:8', 'FRAME', 'Grouped frame')]),
    node('1:9', 'INSTANCE', 'Logo instance'),
    node('1:10', 'RECTANGLE', 'Loose shape'),
  ]),
  node('0:2', 'CANVAS', 'Library', [
    node('2:1', 'COMPONENT_SET', 'Button', [node('2:2', 'COMPONENT', 'Size=Small'), node('2:3', 'COMPONENT', 'Size=Large')]),
    node('2:4', 'COMPONENT', 'Star'),
  ]),
]) as unknown as DocumentNode

const select = (request: Partial<SelectionRequest>) => selectNodes(document, { selection: 'frames', rootNodeId: null, nodeIds: [], ...request })
const ids = (request: Partial<SelectionRequest>) => select(request).nodes.map((selected) => selected.nodeId)

describe('selectNodes', () => {
  it('frames: the top-level frames, components, sets and instances of each page, sections looked into', () => {
    expect(ids({})).toEqual(['1:1', '1:5', '1:9', '2:1', '2:4'])
    expect(select({}).nodes[1]).toMatchObject({ name: 'Banner', pageName: 'Brand', componentSetName: null })
  })

  it('frames with a link: the node itself when frame-like, else its own top-level frames', () => {
    expect(ids({ rootNodeId: '1:1' })).toEqual(['1:1'])
    expect(ids({ rootNodeId: '1:4' })).toEqual(['1:5'])
    expect(ids({ rootNodeId: '0:2' })).toEqual(['2:1', '2:4'])
  })

  it('components: every component, variants tagged with their set, within the linked subtree if any', () => {
    const { nodes } = select({ selection: 'components' })
    expect(nodes.map((selected) => [selected.nodeId, selected.componentSetName])).toEqual([
      ['1:3', null],
      ['2:2', 'Button'],
      ['2:3', 'Button'],
      ['2:4', null],
    ])
    expect(ids({ selection: 'components', rootNodeId: '0:2' })).toEqual(['2:2', '2:3', '2:4'])
  })

  it('nodes: those of node_ids the file (or the subtree) has, the others not found', () => {
    expect(select({ selection: 'nodes', nodeIds: ['1:8', '9:9', '2:4'] })).toMatchObject({ nodes: [{ nodeId: '1:8' }, { nodeId: '2:4' }], notFound: ['9:9'] })
    expect(select({ selection: 'nodes', nodeIds: ['1:8', '2:4'], rootNodeId: '0:2' })).toMatchObject({ nodes: [{ nodeId: '2:4' }], notFound: ['1:8'] })
  })

  it('hashes each node\u2019s subtree: a change inside it changes the hash, a sibling\u2019s does not', () => {
    const before = select({}).nodes
    const edited = JSON.parse(JSON.stringify(document)) as Tree
    edited.children![0]!.children![0]!.children![0]!.name = 'Shape, edited'
    const after = selectNodes(edited as unknown as DocumentNode, { selection: 'frames', rootNodeId: null, nodeIds: [] }).nodes
    expect(after[0]!.contentHash).not.toBe(before[0]!.contentHash)
    expect(after.slice(1).map((selected) => selected.contentHash)).toEqual(before.slice(1).map((selected) => selected.contentHash))
  })

  it('refuses a linked node the file does not have', () => {
    expect(() => select({ rootNodeId: '7:7' })).toThrow(RootNodeNotFound)
  })
})
