import type { CSSProperties, ReactNode } from 'react'

/** A header cell: its text, and a class; `hidden` keeps the text for screen readers only (an actions column). */
export type Column = string | { label: string; className?: string; hidden?: boolean }

const columnOf = (column: Column) => (typeof column === 'string' ? { label: column, className: undefined, hidden: false } : column)

/**
 * The column names as custom properties `--column-1`, `--column-2`…, CSS strings that the stacked
 * layout writes before each cell (styles.css): the names are given once, not on every cell.
 */
function columnLabels(columns: Column[]): CSSProperties {
  return Object.fromEntries(
    columns.map((column, index) => {
      const { label, hidden } = columnOf(column)
      return [`--column-${index + 1}`, hidden ? 'none' : JSON.stringify(label)]
    }),
  )
}

/**
 * A table with its header row; the rows are the caller's. Too wide, it scrolls sideways in its own box;
 * with `stacked`, under 720 px each row becomes a card whose cells are labelled with their column's
 * name instead: the same table, so screen readers still read rows and column headers.
 */
export function Table(props: { columns: Column[]; className?: string; caption?: string; stacked?: boolean; children: ReactNode }) {
  const { columns, className, caption, stacked = false, children } = props
  const classes = ['table', stacked && 'stacked', className].filter(Boolean).join(' ')
  return (
    <div className="table-scroll">
      <table className={classes} style={stacked ? columnLabels(columns) : undefined}>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => {
              const { label, className: cellClass, hidden } = columnOf(column)
              return (
                <th key={label} scope="col" className={cellClass}>
                  {hidden ? <span className="visually-hidden">{label}</span> : label}
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}
