import { run } from './main.js'

await run(process.argv.slice(2))
