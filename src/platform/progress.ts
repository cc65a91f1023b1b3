const WIDTH = 30

export interface Progress {
  update(done: number): void
  finish(): void
}

/** A bar redrawn in place on a terminal; a line per tenth elsewhere (logs, CI), so output stays readable. */
export function progressBar(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  let lastTenth = -1
  const line = (done: number) => {
    const share = total === 0 ? 1 : Math.min(1, done / total)
    const filled = Math.round(share * WIDTH)
    return `${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${Math.floor(share * 100)}% ${done}/${total}`
  }
  return {
    update(done) {
      if (stream.isTTY) {
        stream.write(`\r${line(done)}`)
        return
      }
      const tenth = total === 0 ? 10 : Math.floor((Math.min(done, total) / total) * 10)
      if (tenth > lastTenth) {
        lastTenth = tenth
        stream.write(`${line(done)}\n`)
      }
    },
    finish() {
      if (stream.isTTY) stream.write('\n')
    },
  }
}
