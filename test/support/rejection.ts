import { expect } from 'vitest'

/** The error `promise` rejects with, checked to be a `kind` (a test of a failure path fails if it resolves). */
export async function rejectionOf<E extends Error>(promise: Promise<unknown>, kind: abstract new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(kind)
  return error as E
}
