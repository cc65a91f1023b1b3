import { messageOf } from '../api/problem'

/** A form's failure, read out when it appears: the problem's detail and its field errors. */
export function FormError({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null
  return (
    <p className="form-error" role="alert">
      {messageOf(error)}
    </p>
  )
}
