import './middle-ellipsis.css'

/** How many characters of a long name stay whole at its end: `-1280` and `-1600`, or `v2-final`. */
export const KEPT_END = 8

/**
 * A one-line name that, when it does not fit, loses its middle instead of its end, so names that differ
 * only at the end (`softwaves-wallpaper-1280`, `…-1600`) stay apart: the start is cut with an ellipsis
 * and the last KEPT_END characters always show. The whole name is the hover title and the accessible name.
 */
export function MiddleEllipsis({ text }: { text: string }) {
  const characters = Array.from(text)
  if (characters.length <= KEPT_END * 2) return <span title={text}>{text}</span>
  const start = characters.slice(0, -KEPT_END).join('')
  const end = characters.slice(-KEPT_END).join('')
  return (
    <span className="middle-ellipsis" title={text}>
      <span className="middle-ellipsis-start" aria-hidden="true">
        {start}
      </span>
      <span className="middle-ellipsis-end" aria-hidden="true">
        {end}
      </span>
      <span className="visually-hidden">{text}</span>
    </span>
  )
}
