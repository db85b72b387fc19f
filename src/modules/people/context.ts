import type { Ctx } from '../../kernel/context'

/**
 * What the people verbs use: the connection, the clock and the settings. They act on people,
 * who may belong to several stores, so no `store` here; verbs on one store's team take `Ctx`.
 */
export type PeopleCtx = Pick<Ctx, 'db' | 'clock' | 'config'>

/** Who did it, as the activity log and `createdBy` name them: `user:<id>`, `key:<prefix>`, `cli`, `system`. */
export type ActorRef = string
