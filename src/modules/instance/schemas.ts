import { Type } from 'typebox'
import { COMPONENT } from '../../platform/http/schemas.js'

export const InstanceSchema = Type.Object(
  {
    first_sign_in_pending: Type.Boolean({
      description: 'No one has signed in to this server yet: the owner login that the first start printed in the server\u2019s log is the way in.',
    }),
  },
  { [COMPONENT]: 'AppInstance', additionalProperties: false, description: 'Facts about this server for the sign-in screen; nothing secret, nobody\u2019s data.' },
)
