import { expect } from 'vitest'
import { EmbeddingError } from '../../src/platform/embeddings/provider.js'

/** The EmbeddingError `promise` rejects with (the test fails if it resolves, or rejects with anything else). */
export async function embeddingFailure(promise: Promise<unknown>): Promise<EmbeddingError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(EmbeddingError)
  return error as EmbeddingError
}

/** The cosine of two unit vectors (their dot product). */
export function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, value, i) => sum + value * b[i]!, 0)
}
