/** What the shell's route files share (routes.ts builds it once). */
import type { Challenges, FirstRun, PeopleCtx, RelyingParty, Opened } from '../modules/people'
import type { Config } from '../config'
import type { StoreCache } from '../db/cache'
import type { Db } from '../db/client'
import type { RateLimiter } from '../db/rate-limiter'
import type { Clock } from '../lib/time'
import type { ImportAdmission, UploadAdmission } from '../modules/products'
import type { PushDispatcher } from '../modules/push'
import type { SecretBox } from '../lib/secret-box'
import type { PagesDeps } from './pages/plugin'
import type { PanelRequest } from './gate'
import type { Frame } from './views'
import type { Req } from './respond'

/** What the panel's routes use of the process's wiring. */
export interface PanelDeps extends PagesDeps {
  db: Db
  clock: Clock
  config: Config
  limiter: RateLimiter
  cache: StoreCache
  /** Image uploads in flight (the picture form takes a place like the API's upload). */
  uploads: UploadAdmission
  /** Sends pushes to the sellers' devices (a test notification wakes it). */
  pushes: PushDispatcher
  /** Seals a push subscription's auth secret at rest. */
  secretBox: SecretBox
  /** Catalog CSV imports running: one per store (the import pages take the store's place). */
  imports: ImportAdmission
}

export interface PanelOptions {
  firstRun: FirstRun
}

export interface PanelEnv {
  deps: PanelDeps
  db: PanelDeps['db']
  clock: PanelDeps['clock']
  config: PanelDeps['config']
  limiter: PanelDeps['limiter']
  people: PeopleCtx
  challenges: Challenges
  frame(p: PanelRequest): Promise<Frame>
  render(
    p: PanelRequest,
    set: Req['set'],
    status: number,
    build: (f: Frame) => string,
    extra?: Record<string, string>,
  ): Promise<Response>
  rpOf(p: PanelRequest): RelyingParty
  linkUrl(p: PanelRequest, token: string): string
  currentSessionId(p: PanelRequest): string | undefined
  signedInTo(set: Req['set'], opened: Opened, next?: string): Response
  hidden: { detail: { hide: boolean } }
  issuerOf(p: PanelRequest): string
  opts: PanelOptions
}
