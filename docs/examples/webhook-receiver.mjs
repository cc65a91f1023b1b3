// A webhook receiver with no framework: verify, answer 200 at once, dedupe on the delivery id, work later.
// ASSET_LIBRARY_WEBHOOK_SECRET=whsec_… TLS_KEY=key.pem TLS_CERT=cert.pem node webhook-receiver.mjs
import { readFileSync } from 'node:fs'
import { createServer } from 'node:https'
import { verifyWebhook, WebhookVerificationError } from 'asset-library/webhooks'

const secret = process.env.ASSET_LIBRARY_WEBHOOK_SECRET
const seen = new Set() // use your database in production: a unique index on the delivery id

const tls = { key: readFileSync(process.env.TLS_KEY), cert: readFileSync(process.env.TLS_CERT) }
const server = createServer(tls, async (req, res) => {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  let event
  try {
    event = verifyWebhook(Buffer.concat(chunks), req.headers, secret)
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error
    res.writeHead(400).end(error.code)
    return
  }
  res.writeHead(200).end('ok') // answer first, work later
  if (seen.has(event.id)) return
  seen.add(event.id)
  setImmediate(() => console.log(event.event, event.data))
})
server.listen(Number(process.env.PORT ?? 8443), () => console.log(`listening on ${server.address().port}`))
