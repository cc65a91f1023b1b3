import { useEffect, useId, useRef } from 'react'
import { plural } from '../../ui/format'
import { componentIds, coverage, frameIds, isExactly, pageIds, toggleAll, type Outline, type OutlineComponent } from './selection'

/**
 * The file's pages with their top-level frames, then its components, each with Figma's own thumbnail
 * and a checkbox; a page (and the components) can be picked whole. `picked` is the caller's.
 */
export function OutlinePicker({ outline, picked, onChange }: { outline: Outline; picked: ReadonlySet<string>; onChange(next: Set<string>): void }) {
  const frames = frameIds(outline)
  const components = componentIds(outline)
  const all = [...new Set([...frames, ...components])]
  return (
    <div className="stack import-outline">
      <div className="row import-pick-bar" role="group" aria-label="Pick">
        <span className="strong" role="status">
          {plural(picked.size, 'node')} picked
        </span>
        <button type="button" className="small" onClick={() => onChange(toggleAll(new Set(), all, true))} disabled={coverage(picked, all) === 'all'}>
          Select all
        </button>
        <button type="button" className="small" onClick={() => onChange(toggleAll(new Set(), frames, true))} disabled={frames.length === 0 || isExactly(picked, frames)}>
          All frames
        </button>
        <button type="button" className="small" onClick={() => onChange(toggleAll(new Set(), components, true))} disabled={components.length === 0 || isExactly(picked, components)}>
          All components
        </button>
        <button type="button" className="small" onClick={() => onChange(new Set())} disabled={picked.size === 0}>
          Select none
        </button>
      </div>
      {outline.pages.map((page) => (
        <NodeGroup
          key={page.id}
          title={page.name}
          kind="page"
          ids={pageIds(page)}
          picked={picked}
          onChange={onChange}
          nodes={page.frames.map((frame) => ({ id: frame.id, name: frame.name, detail: typeLabel(frame.type), thumbnailUrl: frame.thumbnail_url }))}
        />
      ))}
      {components.length > 0 && (
        <NodeGroup title="Components" kind="components" ids={components} picked={picked} onChange={onChange} nodes={outline.components.map(componentNode)} />
      )}
    </div>
  )
}

const TYPE_LABELS: Record<string, string> = { FRAME: 'Frame', COMPONENT: 'Component', COMPONENT_SET: 'Component set', INSTANCE: 'Instance', SECTION: 'Section', GROUP: 'Group' }
const typeLabel = (type: string) => TYPE_LABELS[type] ?? type.charAt(0) + type.slice(1).toLowerCase().replaceAll('_', ' ')

function componentNode(component: OutlineComponent) {
  const where = component.component_set ? `Variant of ${component.component_set}` : component.page ? `On ${component.page}` : 'Component'
  return { id: component.id, name: component.name, detail: where, thumbnailUrl: component.thumbnail_url }
}

interface GroupNode {
  id: string
  name: string
  detail: string
  thumbnailUrl: string | null
}

function NodeGroup(props: { title: string; kind: 'page' | 'components'; ids: string[]; nodes: GroupNode[]; picked: ReadonlySet<string>; onChange(next: Set<string>): void }) {
  const { title, kind, ids, nodes, picked, onChange } = props
  const titleId = useId()
  const state = coverage(picked, ids)
  const whole = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (whole.current) whole.current.indeterminate = state === 'some'
  }, [state])
  const toggle = (id: string) => onChange(toggleAll(picked, [id], !picked.has(id)))
  return (
    <section className="panel stack import-group" aria-labelledby={titleId}>
      <h3 className="row import-group-title">
        <label className="row">
          <input ref={whole} type="checkbox" checked={state === 'all'} disabled={ids.length === 0} onChange={() => onChange(toggleAll(picked, ids, state !== 'all'))} aria-label={`Pick all of ${title}`} />
          <span id={titleId}>{title}</span>
        </label>
        <span className="muted small-text">{kind === 'page' ? plural(nodes.length, 'frame') : plural(nodes.length, 'component')}</span>
      </h3>
      {nodes.length === 0 ? (
        <p className="muted">Nothing to import on this page.</p>
      ) : (
        <ul className="import-nodes">
          {nodes.map((node) => (
            <li key={node.id}>
              <label className={`import-node${picked.has(node.id) ? ' picked' : ''}`}>
                <span className="import-node-thumb">{node.thumbnailUrl ? <img src={node.thumbnailUrl} alt="" loading="lazy" /> : <span className="muted">No preview</span>}</span>
                <span className="row import-node-name">
                  <input type="checkbox" checked={picked.has(node.id)} onChange={() => toggle(node.id)} aria-label={node.name} />
                  <span className="import-node-title" title={node.name}>
                    {node.name}
                  </span>
                </span>
                <span className="muted small-text">{node.detail}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
