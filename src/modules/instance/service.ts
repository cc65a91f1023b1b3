import type { Db } from '../../platform/db/index.js'
import * as store from './store.js'

/** What the web app may know about this server before anyone signs in: nothing secret, nobody's data. */
export class InstanceService {
  /** Once someone has signed in, that never changes: the database is not asked again. */
  private signedIn = false

  constructor(private readonly db: Db) {}

  /** No one has signed in yet: the login the first start printed is the way in. */
  async firstSignInPending(): Promise<boolean> {
    this.signedIn ||= await store.anyoneSignedIn(this.db)
    return !this.signedIn
  }
}
