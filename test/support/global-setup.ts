import type { TestProject } from 'vitest/node'
import { prepareTemplate } from './database.js'
import { startS3Server } from './s3-server.js'

declare module 'vitest' {
  export interface ProvidedContext {
    templateDir: string | undefined
    templateDatabase: string | undefined
    /** An S3-compatible server (s3rver) for the whole run: each test file makes buckets of its own. */
    s3Endpoint: string
  }
}

export default async function setup(project: TestProject) {
  const template = await prepareTemplate()
  const s3 = await startS3Server()
  project.provide('templateDir', template.templateDir)
  project.provide('templateDatabase', template.templateDatabase)
  project.provide('s3Endpoint', s3.endpoint)
  return async () => {
    await s3.close()
    await template.cleanup()
  }
}
