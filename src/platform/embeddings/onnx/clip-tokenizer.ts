/**
 * CLIP's byte-level BPE tokenizer, read from a Hugging Face `tokenizer.json` (the format of Immich's
 * model repositories, `textual/tokenizer.json`), encoding as Immich's textual encoder does: the words
 * cleaned, then `<|startoftext|>`, the BPE ids and `<|endoftext|>`, truncated and padded to the model's
 * context length.
 */
export interface ClipTokenizer {
  readonly contextLength: number
  /** Always `contextLength` ids: start, the words' tokens (cut to fit), end, then the pad id. */
  encode(text: string): Int32Array
}

/** The parts of a CLIP `tokenizer.json` this reads; everything else in the file is CLIP's fixed recipe. */
interface TokenizerFile {
  model?: { type?: string; vocab?: Record<string, number>; merges?: (string | [string, string])[]; end_of_word_suffix?: string | null; unk_token?: string | null }
  added_tokens?: { id: number; content: string }[]
}

const START_TOKEN = '<|startoftext|>'
const END_TOKEN = '<|endoftext|>'
/** CLIP's own split (openai/CLIP simple_tokenizer.py, and the `Split` pre-tokenizer of its tokenizer.json). */
const WORD_PATTERN = /<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|\p{L}+|\p{N}|[^\s\p{L}\p{N}]+/gu

/**
 * The tokenizer of `file` (a parsed tokenizer.json). `padToken` is tokenizer_config.json's `pad_token`;
 * `contextLength` is config.json's `text_cfg.context_length`. Throws a plain Error naming what is wrong.
 */
export function createClipTokenizer(file: unknown, { contextLength, padToken }: { contextLength: number; padToken: string }): ClipTokenizer {
  const { model, added_tokens: added = [] } = (file ?? {}) as TokenizerFile
  if (model?.type !== 'BPE' || !model.vocab || !Array.isArray(model.merges)) throw new Error('it is not a BPE tokenizer (model.type, model.vocab and model.merges)')
  const vocab = new Map(Object.entries(model.vocab))
  for (const token of added) vocab.set(token.content, token.id)
  const suffix = model.end_of_word_suffix ?? ''
  const idOf = (token: string, what: string) => {
    const id = vocab.get(token)
    if (id === undefined) throw new Error(`its vocabulary has no ${what} ${JSON.stringify(token)}`)
    return id
  }
  const start = idOf(START_TOKEN, 'start token')
  const end = idOf(END_TOKEN, 'end token')
  const pad = idOf(padToken, 'pad token')
  const unknown = model.unk_token ? vocab.get(model.unk_token) : undefined
  if (!Number.isInteger(contextLength) || contextLength < 2) throw new Error(`context length ${contextLength} cannot hold the start and end tokens`)
  const ranks = new Map(model.merges.map((merge, rank) => [Array.isArray(merge) ? merge.join(' ') : merge, rank]))
  const bpe = bytePairEncoder(ranks, suffix)
  const wordIds = new Map<string, number[]>()

  function idsOfWord(word: string): number[] {
    const special = word === START_TOKEN || word === END_TOKEN ? vocab.get(word) : undefined
    if (special !== undefined) return [special]
    let ids = wordIds.get(word)
    if (!ids) {
      ids = bpe(toByteSymbols(word)).flatMap((token) => {
        const id = vocab.get(token) ?? unknown
        return id === undefined ? [] : [id]
      })
      if (wordIds.size < 10_000) wordIds.set(word, ids)
    }
    return ids
  }

  return {
    contextLength,
    encode(text) {
      const ids = new Int32Array(contextLength).fill(pad)
      const words = clean(text).match(WORD_PATTERN) ?? []
      const content = words.flatMap(idsOfWord).slice(0, contextLength - 2)
      ids[0] = start
      ids.set(content, 1)
      ids[content.length + 1] = end
      return ids
    },
  }
}

/** Immich's `clean_text` and the tokenizer's normalizer: NFC, runs of white space as one space, trimmed, lower case. */
function clean(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase()
}

/**
 * GPT-2's byte-to-unicode map, which CLIP shares: every byte is a printable character, the printable
 * Latin-1 ones as themselves and the rest shifted past 255, so BPE works on text with no raw bytes.
 */
export const CLIP_BYTE_SYMBOLS: string[] = (() => {
  const printable = (byte: number) => (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff)
  let shifted = 0
  return Array.from({ length: 256 }, (_, byte) => String.fromCodePoint(printable(byte) ? byte : 256 + shifted++))
})()

export function toByteSymbols(word: string): string[] {
  return [...Buffer.from(word, 'utf8')].map((byte) => CLIP_BYTE_SYMBOLS[byte]!)
}

/**
 * BPE as CLIP runs it: the word's symbols, the last one carrying the end-of-word suffix, merged pair by
 * pair, always the adjacent pair of lowest merge rank first, until no pair has a rank.
 */
export function bytePairEncoder(ranks: Map<string, number>, suffix: string): (symbols: string[]) => string[] {
  return (symbols) => {
    const parts = [...symbols]
    parts[parts.length - 1] += suffix
    for (;;) {
      let best = -1
      let bestRank = Infinity
      for (let i = 0; i < parts.length - 1; i++) {
        const rank = ranks.get(`${parts[i]} ${parts[i + 1]}`)
        if (rank !== undefined && rank < bestRank) [best, bestRank] = [i, rank]
      }
      if (best < 0) return parts
      const [left, right] = [parts[best], parts[best + 1]]
      // Every occurrence of the pair, left to right, as CLIP's reference implementation merges.
      for (let i = 0; i < parts.length - 1; i++) {
        if (parts[i] === left && parts[i + 1] === right) parts.splice(i, 2, left! + right!)
      }
    }
  }
}
