import type { App } from '../../platform/http/app-type.js'
import { appResponse } from '../../platform/http/schemas.js'
import { InstanceSchema } from './schemas.js'
import type { InstanceService } from './service.js'

/** GET /app/api/instance: what the sign-in screen says about this server, before there is a session. */
export function instanceRoutes(app: App, deps: { instance: InstanceService }): void {
  const { instance } = deps

  app.get(
    '/app/api/instance',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        operationId: 'appGetInstance',
        tags: ['app-session'],
        summary: 'Describe this server before signing in',
        description: 'Whether anyone has signed in yet, so the sign-in screen points a new server\u2019s owner to the login its first start printed.',
        response: { 200: appResponse('Facts about this server.', InstanceSchema) },
      },
    },
    async () => ({ first_sign_in_pending: await instance.firstSignInPending() }),
  )
}
