import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { waitFor } from './wait.js'

/** A real SMTP server on 127.0.0.1 that keeps every message it takes, parsed; it refuses recipients `refuses` matches with 550. */
export interface SmtpSink {
  url: string
  messages: ParsedMail[]
  /** The first message sent to `to` from now on or already received, once it arrives. */
  messageTo(to: string): Promise<ParsedMail>
  close(): Promise<void>
}

export async function startSmtpSink(options: { refuses?: (recipient: string) => boolean } = {}): Promise<SmtpSink> {
  const messages: ParsedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.refuses?.(address.address)) {
        const refusal = new Error('Mailbox unavailable') as Error & { responseCode: number }
        refusal.responseCode = 550
        return callback(refusal)
      }
      callback()
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          messages.push(parsed)
          callback()
        },
        (error: Error) => callback(error),
      )
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  const sentTo = (to: string) => messages.find((m) => [m.to].flat().some((a) => a?.value.some((v) => v.address === to)))
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    messageTo: async (to) => {
      return waitFor(`an email to ${to}`, () => sentTo(to))
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The first http(s) link of a text. */
export function firstLink(text: string | undefined): string | undefined {
  return /https?:\/\/\S+/.exec(text ?? '')?.[0]
}
