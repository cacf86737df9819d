import { Schema } from "effect"

/** The answer of a provider feedback webhook: reports applied, events that were not feedback, a confirmed subscription. */
export const FeedbackReceiptResource = Schema.Struct({
  recorded: Schema.Int.annotations({ description: "Bounces and complaints applied through the bounce policy." }),
  ignored: Schema.Int.annotations({ description: "Events in the payload that are not bounces or complaints." }),
  confirmed: Schema.Boolean.annotations({ description: "An SNS subscription was confirmed." })
}).annotations({ identifier: "FeedbackReceipt" })
