import type { ReactNode } from 'react'

/** A header cell: its text, and a class; `hidden` keeps the text for screen readers only (an actions column). */
export type Column = string | { label: string; className?: string; hidden?: boolean }

/** A table that scrolls sideways in its own box on a narrow screen, with its header row; the rows are the caller's. */
export function Table({ columns, className, caption, children }: { columns: Column[]; className?: string; caption?: string; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className={className ? `table ${className}` : 'table'}>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => {
              const { label, className: cellClass, hidden } = typeof column === 'string' ? { label: column, className: undefined, hidden: false } : column
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
