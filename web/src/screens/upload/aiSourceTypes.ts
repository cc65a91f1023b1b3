/**
 * The IPTC digital source types (http://cv.iptc.org/newscodes/digitalsourcetype/) that say generative AI
 * made the picture, wholly or in part: the names src/platform/images/provenance.ts maps to `ai` and
 * `ai_composite`, mirrored here because the web app cannot import the server's modules (a unit test,
 * test/platform/provenance.test.ts, compares the two lists). No DOM here: that test runs under Node.
 */
export const AI_SOURCE_TYPES: readonly string[] = ['trainedAlgorithmicMedia', 'compositeWithTrainedAlgorithmicMedia']

/** Whether an IPTC digital source type, given as its URI or its bare name, says AI (as the server's `sourceOfType`). */
export function isAiSourceType(type: string): boolean {
  const name = type.trim().replace(/\/+$/, '').split('/').pop()!
  return AI_SOURCE_TYPES.includes(name)
}
