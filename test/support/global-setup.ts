import type { TestProject } from 'vitest/node'
import { prepareTemplate } from './database.js'

declare module 'vitest' {
  export interface ProvidedContext {
    templateDir: string | undefined
    templateDatabase: string | undefined
  }
}

export default async function setup(project: TestProject) {
  const template = await prepareTemplate()
  project.provide('templateDir', template.templateDir)
  project.provide('templateDatabase', template.templateDatabase)
  return template.cleanup
}
