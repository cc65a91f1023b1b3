import { problems, type AppError } from '../../platform/http/errors.js'
import { FigmaError } from '../imports/figma-api.js'

/** A failure of Figma's as the problem a user waiting on it sees. */
export function figmaProblem(error: FigmaError): AppError {
  switch (error.failure) {
    case 'figma_token_invalid':
      return problems.unprocessable('figma_token_invalid', 'Figma refused the token: it is expired or revoked, or lacks the scope this needs.')
    case 'figma_file_not_found':
      return problems.unprocessable('figma_file_not_found', 'Figma has no file of this key that the token can open.')
    default:
      return problems.badGateway('figma_unavailable', 'Figma could not be reached, or did not answer as it documents; try again later.', `figma:${error.failure}`)
  }
}

/**
 * Runs a call to Figma made while a user waits (storing a token, registering a webhook, reading an
 * outline): a FigmaError becomes its problem; anything else is thrown as it is.
 */
export async function askFigma<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (error instanceof FigmaError) throw figmaProblem(error)
    throw error
  }
}
