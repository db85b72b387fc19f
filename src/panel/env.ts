/**
 * The panel's wiring: the one object every panel route file and page is handed (`PanelEnv`, built
 * once by routes.ts). A handler gets what is its request's own — the person, the store's `ctx`, the
 * words, the params — from the route builder (route.ts); what is the same for every request comes
 * from here: the process's wiring the panel uses (`deps`), the people verbs' context, the passkey
 * challenges, and the panel's page and redirect answers.
 */
import type { Challenges, FirstRun, PeopleCtx, RelyingParty, Opened } from '../modules/people'
import type { Config } from '../config'
import type { StoreCache } from '../db/cache'
import type { Db } from '../db/client'
import type { RateLimiter } from '../db/rate-limiter'
import type { Clock } from '../lib/time'
import type { ImportAdmission, UploadAdmission } from '../modules/products'
import type { PushDispatcher } from '../modules/push'
import type { SecretBox } from '../lib/secret-box'
import type { FeedDeps } from './pages/orders/live'
import type { PanelRequest } from './gate'
import type { Frame } from './views'
import type { Req } from './respond'

/** What the panel uses of the process's wiring (deps.ts): the orders' live feed's hooks among it. */
export interface PanelDeps extends FeedDeps {
  db: Db
  clock: Clock
  config: Config
  /** The sign-in throttle's windows: a "confirm it's you" proof is counted in them too (confirm.ts). */
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
  /** `deps`'s four most used, at hand. */
  db: PanelDeps['db']
  clock: PanelDeps['clock']
  config: PanelDeps['config']
  limiter: PanelDeps['limiter']
  /** The people verbs' context: a person before (or beside) a store. */
  people: PeopleCtx
  /** The passkey ceremonies' challenges. */
  challenges: Challenges
  /** A page in the panel's frame for the request, with the panel's headers (respond.ts `page`). */
  render(
    p: PanelRequest,
    set: Req['set'],
    status: number,
    build: (f: Frame) => string,
    extra?: Record<string, string>,
  ): Promise<Response>
  /** A 303 to `location`, setting the session cookie when one is given (respond.ts `seeOther`). */
  seeOther(set: Req['set'], location: string, cookie?: string): Response
  rpOf(p: PanelRequest): RelyingParty
  linkUrl(p: PanelRequest, token: string): string
  currentSessionId(p: PanelRequest): string | undefined
  signedInTo(set: Req['set'], opened: Opened, next?: string): Response
  issuerOf(p: PanelRequest): string
  opts: PanelOptions
}
