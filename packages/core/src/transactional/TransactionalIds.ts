import { Schema } from "effect"

/** Integer primary key of a transactional mail template. */
export const TransactionalTemplateId = Schema.Int.pipe(Schema.brand("TransactionalTemplateId"))
/** @since 0.2.0 */
export type TransactionalTemplateId = typeof TransactionalTemplateId.Type

/** Public UUID of a transactional mail template. */
export const TransactionalTemplateUuid = Schema.UUID.pipe(Schema.brand("TransactionalTemplateUuid"))
/** @since 0.2.0 */
export type TransactionalTemplateUuid = typeof TransactionalTemplateUuid.Type

/** Integer primary key of a transactional mail (a log item). */
export const TransactionalMailId = Schema.Int.pipe(Schema.brand("TransactionalMailId"))
/** @since 0.2.0 */
export type TransactionalMailId = typeof TransactionalMailId.Type

/** Public UUID of a transactional mail (a log item). */
export const TransactionalMailUuid = Schema.UUID.pipe(Schema.brand("TransactionalMailUuid"))
/** @since 0.2.0 */
export type TransactionalMailUuid = typeof TransactionalMailUuid.Type
