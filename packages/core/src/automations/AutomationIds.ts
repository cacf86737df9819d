import { Schema } from "effect"

/** Integer primary key of an automation mail. */
export const AutomationMailId = Schema.Int.pipe(Schema.brand("AutomationMailId"))
/** @since 0.3.0 */
export type AutomationMailId = typeof AutomationMailId.Type

/** Public UUID of an automation mail. */
export const AutomationMailUuid = Schema.UUID.pipe(Schema.brand("AutomationMailUuid"))
/** @since 0.3.0 */
export type AutomationMailUuid = typeof AutomationMailUuid.Type

/** Integer primary key of an automation. */
export const AutomationId = Schema.Int.pipe(Schema.brand("AutomationId"))
/** @since 0.3.0 */
export type AutomationId = typeof AutomationId.Type

/** Public UUID of an automation. */
export const AutomationUuid = Schema.UUID.pipe(Schema.brand("AutomationUuid"))
/** @since 0.3.0 */
export type AutomationUuid = typeof AutomationUuid.Type

/** Integer key of a subscriber's position in an automation (a row of `automation_runs`). */
export const AutomationRunId = Schema.Int.pipe(Schema.brand("AutomationRunId"))
/** @since 0.3.0 */
export type AutomationRunId = typeof AutomationRunId.Type
