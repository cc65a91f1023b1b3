import { run } from './cli/run.js'

await run(process.argv.slice(2))
