#!/usr/bin/env node
// Runs the compiled build; `npm run build` (or `npm start`, which builds first) produces it.
import '../dist/cli.js'
